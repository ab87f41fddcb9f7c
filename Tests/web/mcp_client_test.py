"""The official MCP Python client, unchanged, against Hearth: `hearth mcp` on stdio and `hearth serve` at /mcp.

Usage: mcp_client_test.py BASE_URL   (HEARTH_BIN: the hearth binary; HEARTH_EMBEDDING_MODEL for memory search)
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation

BASE_URL = sys.argv.pop(1) if len(sys.argv) > 1 else "http://127.0.0.1:8080"
HEARTH = os.environ.get("HEARTH_BIN", "hearth")
CLIENT = Implementation(name="mcp-python-test", version="1.0")


def text_of(result):
    return "".join(part.text for part in result.content if getattr(part, "type", "") == "text")


class StdioTest(unittest.TestCase):
    """`hearth mcp` on a profile of its own, as an assistant's MCP configuration runs it."""

    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="hearth-mcp-")
        self.env = {**os.environ, "HEARTH_HOME": self.home}

    def hearth(self, *args):
        done = subprocess.run([HEARTH, *args], env=self.env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def events(self, day):
        return [event["title"] for event in json.loads(self.hearth("calendar", "list", "--from", day, "--to", day, "--json"))]

    async def session(self, body):
        parameters = StdioServerParameters(command=HEARTH, args=["mcp"], env=self.env)
        async with stdio_client(parameters) as (read, write):
            async with ClientSession(read, write, client_info=CLIENT) as session:
                initialized = await session.initialize()
                self.assertEqual(initialized.serverInfo.name, "hearth")
                return await body(session)

    def test_reads_answer_and_a_creation_waits_until_confirmed_in_hearth(self):
        self.hearth("calendar", "add", "Dentist", "--start", "2026-12-03T09:00", "--duration", "45")

        async def body(session):
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            for name in ["calendar_query", "calendar_free", "calendar_create", "reminders_list", "notes_search",
                         "contacts_search", "habits_stats", "memory_search"]:
                self.assertIn(name, tools)
            self.assertTrue(tools["calendar_query"].annotations.readOnlyHint)
            self.assertFalse(tools["calendar_delete"].annotations.readOnlyHint)
            self.assertNotIn("action", tools["calendar_create"].inputSchema["properties"])

            read = await session.call_tool("calendar_query", {"from": "2026-12-03", "to": "2026-12-03"})
            self.assertFalse(read.isError)
            self.assertIn("Dentist", text_of(read))

            asked = await session.call_tool(
                "calendar_create", {"title": "Lunch with Priya", "start": "2026-12-03T12:30", "end": "2026-12-03T13:30"})
            self.assertFalse(asked.isError)
            self.assertEqual(asked.structuredContent["state"], "pending")
            self.assertIn("confirmation", text_of(asked))
            return asked.structuredContent["action_id"]

        action = asyncio.run(self.session(body))
        self.assertEqual(self.events("2026-12-03"), ["Dentist"])
        waiting = json.loads(self.hearth("actions", "log", "--pending", "--json"))
        self.assertEqual([(record["id"], record["source"]) for record in waiting], [(action, "mcp: mcp-python-test")])
        self.hearth("actions", "confirm", action)
        self.assertEqual(sorted(self.events("2026-12-03")), ["Dentist", "Lunch with Priya"])

    def test_allowed_creations_run_and_memory_search_cites_them(self):
        self.hearth("mcp", "settings", "--creations", "allow")

        async def body(session):
            created = await session.call_tool(
                "notes_create", {"title": "Boiler", "body": "The boiler service code is 4471, call Hammarby Heat."})
            self.assertFalse(created.isError, text_of(created))
            self.assertEqual(created.structuredContent["state"], "created")
            found = await session.call_tool("memory_search", {"query": "boiler service code", "limit": 3})
            self.assertFalse(found.isError, text_of(found))
            self.assertIn("4471", text_of(found))
            self.assertEqual(found.structuredContent["citations"][0]["title"], "Boiler")
            refused = await session.call_tool("calendar_create", {"title": "X", "start": "soon"})
            self.assertTrue(refused.isError)
            self.assertIn("start", text_of(refused))
            # A change still waits, whatever the setting.
            change = await session.call_tool("notes_delete", {"title": "Boiler"})
            self.assertEqual(change.structuredContent["state"], "pending")

        asyncio.run(self.session(body))
        self.assertIn("Boiler", self.hearth("notes", "list"))


class HTTPTest(unittest.TestCase):
    """`hearth serve` at /mcp, over streamable HTTP."""

    def test_a_change_through_the_server_waits_in_the_web_app(self):
        async def body():
            async with streamable_http_client(f"{BASE_URL}/mcp") as (read, write, _):
                async with ClientSession(read, write, client_info=CLIENT) as session:
                    await session.initialize()
                    tools = (await session.list_tools()).tools
                    self.assertIn("reminders_create", [tool.name for tool in tools])
                    asked = await session.call_tool("reminders_create", {"title": "Renew the padlock permit"})
                    self.assertEqual(asked.structuredContent["state"], "pending")
                    return asked.structuredContent["action_id"]

        action = asyncio.run(body())
        with urllib.request.urlopen(f"{BASE_URL}/api/actions?state=pending") as reply:
            waiting = json.load(reply)["actions"]
        record = next(record for record in waiting if record["id"] == action)
        self.assertEqual(record["source"], "mcp: mcp-python-test")
        request = urllib.request.Request(f"{BASE_URL}/api/actions/{action}/cancel", method="POST")
        with urllib.request.urlopen(request) as reply:
            self.assertEqual(json.load(reply)["state"], "cancelled")


if __name__ == "__main__":
    unittest.main(verbosity=2)
