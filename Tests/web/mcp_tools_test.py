"""Hearth as an MCP client, through the real CLI and real servers: `mcp-server-time` from PyPI and a server
whose tools crash or hang.

Usage: mcp_tools_test.py   (HEARTH_BIN: the hearth binary; HEARTH_MODEL: the chat model file)
"""

import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from zoneinfo import ZoneInfo

HEARTH = os.environ.get("HEARTH_BIN", "hearth")
MODEL = os.environ["HEARTH_MODEL"]
BIN = os.path.dirname(sys.executable)
FLAKY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flaky_mcp_server.py")


class ToolServersTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="hearth-tools-")
        self.env = {**os.environ, "HEARTH_HOME": self.home}

    def hearth(self, *args, check=True, timeout=180):
        done = subprocess.run([HEARTH, *args], env=self.env, capture_output=True, text=True, timeout=timeout)
        if check:
            self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def ask(self, question):
        done = self.hearth("ask", "--model", MODEL, "--json", question)
        return json.loads(done.stdout)

    def add_time_server(self):
        added = self.hearth("mcp", "add", "time", "--json", "--",
                            os.path.join(BIN, "mcp-server-time"), "--local-timezone", "Europe/Paris")
        return json.loads(added.stdout)

    def test_the_time_in_tokyo_comes_from_the_tool(self):
        server = self.add_time_server()
        self.assertEqual([tool["name"] for tool in server["tools"]], ["get_current_time", "convert_time"])
        tools = json.loads(self.hearth("mcp", "tools", "time", "--json").stdout)
        self.assertTrue(all(tool["read_only"] for tool in tools))
        listed = self.hearth("mcp", "list").stdout
        self.assertIn("time", listed)
        self.assertIn("mcp-server-time", listed)

        before = datetime.datetime.now(ZoneInfo("Asia/Tokyo"))
        answer = self.ask("What time is it in Tokyo?")
        after = datetime.datetime.now(ZoneInfo("Asia/Tokyo"))
        calls = [action for action in answer["actions"] if action["kind"] == "TOOL_CALL"]
        self.assertEqual(len(calls), 1, answer)
        call = calls[0]
        self.assertEqual(call["state"], "answered", call)
        self.assertIn("get_current_time", call["summary"])
        self.assertIn("timezone: Asia/Tokyo", call["summary"])
        # The answer states the tool's result: Tokyo's date and time, as the server read its clock.
        stamp = next(line.split(": ", 1)[1] for line in call["result"].splitlines() if line.startswith("datetime: "))
        told = datetime.datetime.fromisoformat(stamp)
        self.assertEqual(told.utcoffset(), datetime.timedelta(hours=9))
        self.assertLessEqual(before.replace(microsecond=0) - datetime.timedelta(seconds=1), told)
        self.assertLessEqual(told, after + datetime.timedelta(seconds=1))
        self.assertIn(stamp, answer["text"])
        self.assertIn("Asia/Tokyo", answer["text"])

        # Two places and a clock time: the conversion tool, with both zones and the time read from the words.
        converted = self.ask("What is 3pm London time in Tokyo?")
        call = next(action for action in converted["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual(call["action"], "convert_time", call)
        self.assertIn("source_timezone: Europe/London", call["summary"])
        self.assertIn("target_timezone: Asia/Tokyo", call["summary"])
        self.assertIn("time: 15:00", call["summary"])

    def test_a_tool_that_asks_waits_until_confirmed(self):
        self.add_time_server()
        policy = self.hearth("mcp", "policy", "time", "get_current_time", "ask").stdout
        self.assertIn("ask", policy)
        answer = self.ask("What time is it in Tokyo?")
        call = next(action for action in answer["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual(call["state"], "pending", call)
        self.assertIsNone(call.get("result"))
        pending = json.loads(self.hearth("actions", "log", "--pending", "--json").stdout)
        self.assertIn(call["id"], [record["id"] for record in pending])
        confirmed = json.loads(self.hearth("actions", "confirm", call["id"], "--json").stdout)
        self.assertEqual(confirmed["state"], "answered", confirmed)
        self.assertIn("timezone: Asia/Tokyo", confirmed["result"])
        # A second confirmation changes nothing and says why.
        again = self.hearth("actions", "confirm", call["id"], check=False)
        self.assertNotEqual(again.returncode, 0)
        self.assertIn("answered", again.stderr)

    def test_a_crashed_or_hanging_server_fails_that_call_only(self):
        self.add_time_server()
        self.hearth("mcp", "add", "flaky", "--timeout", "3", "--", sys.executable, FLAKY)
        for tool in ["crash_server", "hang_forever"]:
            self.hearth("mcp", "policy", "flaky", tool, "allow")

        crashed = self.ask("Please crash the server")
        call = next(action for action in crashed["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual((call["action"], call["state"]), ("crash_server", "failed"), call)
        self.assertIn("stopped (exit status 3)", call["reason"])
        self.assertEqual(crashed["state"], "complete")

        started = time.monotonic()
        hung = self.ask("Hang forever")
        call = next(action for action in hung["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual((call["action"], call["state"]), ("hang_forever", "failed"), call)
        self.assertIn("did not answer within 3 s", call["reason"])
        self.assertLess(time.monotonic() - started, 60)

        # The other server, and the same one started afresh, still answer.
        fine = self.ask("What time is it in Tokyo?")
        call = next(action for action in fine["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual(call["state"], "answered", call)

    def test_git_on_a_scratch_repository_reads_at_once_and_changes_ask(self):
        repo = os.path.join(self.home, "site")
        os.makedirs(repo)
        git = ["git", "-C", repo, "-c", "user.name=Test", "-c", "user.email=test@example.com"]
        subprocess.run(git[:3] + ["init", "-q"], check=True)
        with open(os.path.join(repo, "packing.md"), "w") as file:
            file.write("Tent, stove\n")
        subprocess.run(git[:3] + ["add", "packing.md"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "Add the packing list"], check=True)
        with open(os.path.join(repo, "packing.md"), "a") as file:
            file.write("Lantern\n")

        server = json.loads(self.hearth("mcp", "add", "git", "--json", "--", os.path.join(BIN, "mcp-server-git")).stdout)
        policies = {tool["name"]: server["policies"].get(tool["name"], "allow" if tool["read_only"] else "ask")
                    for tool in server["tools"]}
        self.assertEqual(policies["git_log"], "allow")
        self.assertEqual(policies["git_commit"], "ask")
        listed = self.hearth("mcp", "tools", "git").stdout
        self.assertIn("git_commit  [ask]", listed)
        self.assertIn("git_log  [allow]", listed)

        log = self.ask(f"Show the git log of {repo}")
        call = next(action for action in log["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual((call["action"], call["state"]), ("git_log", "answered"), call)
        self.assertIn(f"repo_path: {repo}", call["summary"])
        self.assertIn("Add the packing list", call["result"])
        self.assertIn("Add the packing list", log["text"])

        status = self.ask(f"What is the git status of {repo}?")
        call = next(action for action in status["actions"] if action["kind"] == "TOOL_CALL")
        self.assertEqual((call["action"], call["state"]), ("git_status", "answered"), call)
        self.assertIn("packing.md", call["result"])

    def test_bad_servers_are_refused_by_name(self):
        missing = self.hearth("mcp", "add", "nothing", "--", "no-such-program-here", check=False)
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn("no program named no-such-program-here", missing.stderr)
        bad = self.hearth("mcp", "add", "two words", "--", "true", check=False)
        self.assertIn("cannot name a server", bad.stderr)
        self.add_time_server()
        twice = self.hearth("mcp", "add", "time", "--", os.path.join(BIN, "mcp-server-time"), check=False)
        self.assertIn("already added", twice.stderr)
        self.hearth("mcp", "rm", "time")
        self.assertIn("No MCP servers", self.hearth("mcp", "list").stdout)
        gone = self.hearth("mcp", "rm", "time", check=False)
        self.assertIn("no MCP server named time", gone.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
