#!/usr/bin/env python3
"""Stands in for `llama-server` when llama.cpp's own server test suite runs (scripts/compat.sh).

The suite (tools/server/tests/utils.py, `ServerProcess.start`) starts the program named by
LLAMA_SERVER_BIN_PATH with llama-server's command line and waits for `GET /health`. Its model presets
download from Hugging Face, which cannot be reached here, so this program rewrites the model flags to
local files and then becomes (exec) the real server, keeping the pid the suite terminates:

  HEARTH_COMPAT_MODE=llama   llama-server itself, with the same flags and a local model.
  HEARTH_COMPAT_MODE=hearth  `hearth serve` with the flags translated (table below) on a fresh profile.

Environment (set by scripts/compat.sh):
  HEARTH_COMPAT_LLAMA_SERVER   the llama-server binary            (llama mode)
  HEARTH_COMPAT_HEARTH         the hearth binary                  (hearth mode)
  HEARTH_COMPAT_CHAT_MODEL     chat model GGUF (SmolLM2-135M-Instruct)
  HEARTH_COMPAT_EMBED_MODEL    embedding model GGUF (all-MiniLM-L6-v2)
  HEARTH_COMPAT_GEMMA_MODEL    optional: stands in for the gemma-3 presets (gemma-3-270m)
  HEARTH_COMPAT_SCRATCH        folder for the per-launch Hearth profiles (removed by compat.sh)
  HEARTH_COMPAT_LOG            optional: one line per launch naming the flags dropped as gaps
  HEARTH_COMPAT_STRICT=1       hearth mode: refuse to start (exit 2) instead of dropping a gap flag

Which local model replaces a remote one: an embedding or reranking server (--embedding, --reranking, or
a repository/file name with bert, bge, minilm, nomic, embed or rerank in it) gets the embedding model; a
gemma repository gets gemma-3-270m when HEARTH_COMPAT_GEMMA_MODEL is set; anything else gets the chat
model. A server started with no model at all (the suite's "router" preset) stays without one under
llama-server (its router mode) and gets the chat model under Hearth, which always serves one model.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile

# llama-server flags the suite passes that take a value (utils.py); every other flag is a switch.
VALUED = {
    "--port", "--temp", "--seed", "--host", "--model", "-m", "--model-url", "--model-draft", "--hf-repo",
    "--hf-file", "--models-dir", "--models-max", "--models-preset", "--cors-origins", "--batch-size",
    "--ubatch-size", "--threads", "--n-gpu-layers", "--pooling", "--alias", "--tags", "--ctx-size",
    "--parallel", "-ctk", "-ctv", "-fa", "--n-predict", "--slot-save-path", "--grp-attn-n", "--grp-attn-w",
    "--lora", "--spec-type", "--api-key", "--spec-draft-n-max", "--spec-draft-n-min", "--spec-synth-len",
    "--spec-synth-rates", "--reasoning-format", "--reasoning", "--chat-template", "--chat-template-file",
    "--mmproj-url", "--media-path", "--sleep-idle-seconds", "--cache-ram", "--tools", "--tools-runtime",
    "--mcp-servers-config", "--mcp-servers-json",
}
REMOTE_MODEL = {"--hf-repo", "--hf-file", "--model-url"}
EMBEDDING_HINTS = ("bert", "bge", "minilm", "nomic", "embed", "rerank")


def parse(argv: list[str]) -> list[tuple[str, str | None]]:
    out, i = [], 0
    while i < len(argv):
        flag = argv[i]
        if flag in VALUED:
            if i + 1 >= len(argv):
                sys.exit(f"compat launcher: {flag} needs a value")
            out.append((flag, argv[i + 1]))
            i += 2
        elif flag.startswith("-"):
            out.append((flag, None))
            i += 1
        else:
            sys.exit(f"compat launcher: unexpected argument {flag!r}")
    return out


def env_path(name: str, required: bool = True) -> str | None:
    value = os.environ.get(name)
    if required and not value:
        sys.exit(f"compat launcher: {name} is not set (run through scripts/compat.sh)")
    if value and not os.path.exists(value):
        sys.exit(f"compat launcher: {name}={value} does not exist")
    return value


def local_model(flags: list[tuple[str, str | None]]) -> str | None:
    """The local file for the model the command line names remotely; None when it names none."""
    names = {f for f, _ in flags}
    remote = " ".join(v or "" for f, v in flags if f in REMOTE_MODEL).lower()
    if not remote:
        return None
    if "--embedding" in names or "--reranking" in names or any(h in remote for h in EMBEDDING_HINTS):
        return env_path("HEARTH_COMPAT_EMBED_MODEL")
    if "gemma" in remote and os.environ.get("HEARTH_COMPAT_GEMMA_MODEL"):
        return env_path("HEARTH_COMPAT_GEMMA_MODEL")
    return env_path("HEARTH_COMPAT_CHAT_MODEL")


def run_llama(flags: list[tuple[str, str | None]]) -> None:
    server = env_path("HEARTH_COMPAT_LLAMA_SERVER")
    model = local_model(flags)
    args = [server]
    for flag, value in flags:
        if flag in REMOTE_MODEL:
            continue  # replaced by -m below
        args.append(flag)
        if value is not None:
            args.append(value)
    if model:
        args += ["--model", model]
    print("compat launcher (llama): " + shlex.join(args), flush=True)
    os.execv(server, args)


# --- hearth mode -----------------------------------------------------------------------------------
#
# Each llama-server flag the suite can pass, and what `hearth serve` gets for it:
#
#   (always)                         --any-model-name: llama-server answers a request naming any model
#                                    (`gpt-3.5-turbo`) with the one it serves; Hearth does so with this
#                                    flag, and refuses unknown names with model_not_found without it
#   --host H, --port P               --host H, --port P
#   --api-key K                      --api-key K (Hearth wants >= 16 characters; the suite's key has 25)
#   --threads N                      --threads N
#   --hf-repo/--hf-file/--model-url  --model <local GGUF> (chat model; see the module docstring)
#   --model PATH                     --model PATH
#   --ctx-size N, --parallel S       --context N/S --parallel S: llama-server splits N over S slots, so N/S
#                                    is the window one request gets (N when --kv-unified); Hearth gives each
#                                    of its S slots that window. Embedding servers: dropped (Hearth's
#                                    embedder always uses the model's own 512-token window)
#   --temp T, --n-predict N          the profile's saved chat settings, which Hearth uses for whatever a
#                                    request leaves out: temperature T, max_tokens N (-1/none: 32768, the
#                                    most Hearth allows, i.e. until end of generation or a full context),
#                                    with llama-server's other sampling defaults (top_k 40, top_p 0.95,
#                                    min_p 0.05, repeat_penalty 1.0) so both servers sample alike
#   --verbose                        --show-prompts: whole chat answers carry `__verbose.prompt`, the part
#                                    of llama-server's debug output the suite reads
#   --chat-template NAME             --chat-template NAME
#   --chat-template-file F           --chat-template <F's text> (Hearth takes a name or a template text)
#   --no-jinja                       nothing: Hearth applies templates the way llama-server does without
#                                    Jinja (llama.cpp's built-in template detection)
#   --embedding                      HEARTH_EMBEDDING_MODEL=<local embedding GGUF>; Hearth always serves
#                                    /v1/embeddings with it, beside the chat model
#   --pooling mean                   nothing: Hearth's embedder mean-pools, as the model's own setting does
#   --cors-origins A,B               --allow-origin A --allow-origin B (Hearth matches whole origins;
#                                    llama-server also takes bare host names such as `localhost`)
#
# Dropped because they change how fast, not what, the server answers:
#   --n-gpu-layers, --batch-size, --ubatch-size, -fa, --cont-batching, --cache-ram, --no-cache-idle-slots,
#   --swa-full, --offline (no downloads happen either way), --no-slots (Hearth has no /slots route, which
#   is what --no-slots gives), --kv-unified (only used for the window above)
#
# Gaps: flags that change what llama-server answers and that Hearth has no equivalent for. They are
# dropped and named on the server's first output line and in HEARTH_COMPAT_LOG, so a test that depends
# on one shows up as a failure of that gap, not as a pass by accident; HEARTH_COMPAT_STRICT=1 refuses
# to start instead. The suite passes --seed 42 on every launch (a default seed for requests without
# one; Hearth draws a fresh seed), so without dropping gaps no test could run at all.
#   --seed, --alias, --tags, --jinja, --reasoning-format, --reasoning, --pooling other than mean,
#   --reranking, --metrics, --slots, --no-ui, --context-shift, --grp-attn-n/-w, -ctk, -ctv,
#   --lora, --model-draft, --spec-*, --slot-save-path, --mmproj-url, --no-mmproj, --media-path,
#   --sleep-idle-seconds, --models-dir, --models-max, --models-preset, --no-models-autoload, --tools,
#   --tools-runtime, --mcp-servers-config, --mcp-servers-json, --ui-mcp-proxy, --backend_sampling, and
#   any flag not listed here.

PERFORMANCE_ONLY = {
    "--n-gpu-layers", "--batch-size", "--ubatch-size", "-fa", "--cont-batching", "--cache-ram",
    "--no-cache-idle-slots", "--swa-full", "--offline", "--no-slots", "--kv-unified",
}
LLAMA_SAMPLING_DEFAULTS = {"top_k": 40, "top_p": 0.95, "min_p": 0.05, "repeat_penalty": 1.0}
HEARTH_MAX_TOKENS = 32768


def seed_profile(hearth: str, home: str, env: dict, temperature: float, max_tokens: int) -> None:
    """Writes the chat settings into a fresh profile: a Hearth command opens (and so creates and
    migrates) the database, then the settings row is written as Hearth's `setting` table keeps it."""
    subprocess.run([hearth, "sessions", "list"], env=env, check=True, stdout=subprocess.DEVNULL)
    settings = {
        "preset": "custom", "temperature": temperature, "max_tokens": max_tokens,
        "show_thinking": True, **LLAMA_SAMPLING_DEFAULTS,
    }
    with sqlite3.connect(os.path.join(home, "hearth.sqlite")) as db:
        db.execute(
            "INSERT INTO setting (key, value) VALUES ('chat', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (json.dumps(settings, sort_keys=True),))


def run_hearth(flags: list[tuple[str, str | None]]) -> None:
    hearth = env_path("HEARTH_COMPAT_HEARTH")
    chat_model = env_path("HEARTH_COMPAT_CHAT_MODEL")
    embed_model = env_path("HEARTH_COMPAT_EMBED_MODEL")
    values = {f: v for f, v in flags}
    names = set(values)
    named = local_model(flags)
    embedding_server = named == embed_model

    args = [hearth, "serve", "--any-model-name"]
    gaps: list[str] = []
    temperature, max_tokens = 0.8, HEARTH_MAX_TOKENS  # llama-server's defaults
    for flag, value in flags:
        shown = flag if value is None else f"{flag} {value}"
        if flag in ("--host", "--port", "--api-key", "--threads", "--chat-template"):
            args += [flag, value]
        elif flag in ("--model", "-m"):
            args += ["--model", value]
        elif flag in REMOTE_MODEL or flag == "--embedding" or flag == "--no-jinja" or flag == "--parallel":
            pass  # handled below
        elif flag == "--ctx-size":
            if not embedding_server:
                slots = max(1, int(values.get("--parallel") or 1))
                window = int(value) if "--kv-unified" in names else int(value) // slots
                args += ["--context", str(window), "--parallel", str(slots)]
        elif flag == "--temp":
            temperature = float(value)
        elif flag == "--n-predict":
            n = int(value)
            max_tokens = HEARTH_MAX_TOKENS if n < 0 else min(n, HEARTH_MAX_TOKENS)
        elif flag == "--chat-template-file":
            with open(value, encoding="utf-8") as f:
                args += ["--chat-template", f.read()]
        elif flag == "--verbose":
            args += ["--show-prompts"]
        elif flag == "--pooling" and value == "mean":
            pass
        elif flag == "--cors-origins":
            for origin in filter(None, (o.strip() for o in value.split(","))):
                args += ["--allow-origin", origin]
        elif flag in PERFORMANCE_ONLY:
            pass
        else:
            gaps.append(shown)
    if "--model" not in args:
        args += ["--model", chat_model if named is None or embedding_server else named]
    if not embedding_server and "--parallel" in values and "--ctx-size" not in names:
        args += ["--parallel", str(max(1, int(values["--parallel"])))]

    if gaps:
        note = "compat launcher (hearth): no Hearth equivalent, dropped: " + ", ".join(gaps)
        if os.environ.get("HEARTH_COMPAT_LOG"):
            with open(os.environ["HEARTH_COMPAT_LOG"], "a", encoding="utf-8") as log:
                log.write(json.dumps(gaps) + "\n")
        if os.environ.get("HEARTH_COMPAT_STRICT") == "1":
            print(note.replace("dropped", "refusing to start"), file=sys.stderr, flush=True)
            sys.exit(2)
        print(note, flush=True)

    scratch = os.environ.get("HEARTH_COMPAT_SCRATCH") or tempfile.gettempdir()
    os.makedirs(scratch, exist_ok=True)
    home = tempfile.mkdtemp(prefix="profile-", dir=scratch)
    env = {**os.environ, "HEARTH_HOME": home, "HEARTH_EMBEDDING_MODEL": embed_model}
    env.pop("HEARTH_API_KEY", None)
    env.pop("HEARTH_MODEL", None)
    seed_profile(hearth, home, env, temperature, max_tokens)
    print("compat launcher (hearth): HEARTH_HOME=%s %s" % (home, shlex.join(
        a if len(a) < 200 else a[:60] + "…" for a in args)), flush=True)
    os.execve(hearth, args, env)


def main() -> None:
    flags = parse(sys.argv[1:])
    mode = os.environ.get("HEARTH_COMPAT_MODE", "")
    if mode == "llama":
        run_llama(flags)
    elif mode == "hearth":
        run_hearth(flags)
    else:
        sys.exit("compat launcher: HEARTH_COMPAT_MODE must be llama or hearth")


if __name__ == "__main__":
    main()
