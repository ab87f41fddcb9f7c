#!/usr/bin/env bash
# Runs the tests that need a running `hearth serve`: the official OpenAI Python client against the API,
# and a real headless Chromium driving the web app. The server runs the tiny default model on a fresh
# profile in a temporary folder, on a free port, and is stopped afterwards whatever happens.
#   scripts/web-tests.sh [--screenshots DIR]
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

hearth="${HEARTH_BIN:-$root/.build/debug/hearth}"
python="$HEARTH_CACHE/venv-test/bin/python"
home="$(mktemp -d)"
keyed_home="$(mktemp -d)"
tls_home="$(mktemp -d)"
push_home="$(mktemp -d)"
log="$home/serve.log"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$home" "$keyed_home" "$tls_home" "$push_home" "${dav_home:-}"
}
trap cleanup EXIT

# HEARTH_SERVER_CPUS pins the servers to those CPUs (the browser and the tests run where the system puts them):
# `make test` gives them the CPU of the lane they run in, so the model's threads never share a CPU with the
# other lane's while Chromium may use whichever is free.
pin=()
if [[ -n "${HEARTH_SERVER_CPUS:-}" ]]; then pin=(taskset -c "$HEARTH_SERVER_CPUS"); fi

# start_server HOME LOG [serve flags…]: a `hearth serve` on a free port; its address in $started_url. Its first
# scheduled backup waits a day, so the backups a page test takes are the only ones (the schedule has its own test).
start_server() {
  local profile="$1" out="$2"
  shift 2
  HEARTH_HOME="$profile" HEARTH_EMBEDDING_MODEL="$HEARTH_MODELS_CACHE/$MINILM_FILE" \
    HEARTH_SPEECH_MODEL="$HEARTH_MODELS_CACHE/$WHISPER_MODEL_FILE" HEARTH_VAD_MODEL="$HEARTH_MODELS_CACHE/$VAD_MODEL_FILE" \
    HEARTH_VOICE_MODEL="$HEARTH_MODELS_CACHE/$PIPER_VOICE_FILE" ${pin[@]+"${pin[@]}"} "$hearth" serve --port 0 \
    --first-backup-after 86400 --model "$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" "$@" >"$out" 2>&1 &
  local pid=$!
  servers+=("$pid")
  for _ in $(seq 1 300); do
    if grep -q "Hearth is listening on" "$out"; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then cat "$out" >&2; echo "web tests: the server did not start" >&2; exit 1; fi
    sleep 0.1
  done
  started_url="$(grep -oE 'https?://[^ ]*' "$out" | head -1)"
  [[ -n "$started_url" ]] || { cat "$out" >&2; echo "web tests: no address in the server's output" >&2; exit 1; }
}

# The Models page test downloads from a web server on this machine, which pulls reach only when allowed. The
# HTTPS test reaches it under a name that is not loopback too, to see the browser withhold the microphone.
start_server "$home" "$log" --allow-private-network --allow-host phone.hearth.test
url="$started_url"
# A second server that needs an API key, for the key dialog.
export HEARTH_KEYED_KEY="web-test-key-0123456789"
# Given as a file, as the help advises: a key on the command line shows in `ps`.
printf '%s\n' "$HEARTH_KEYED_KEY" >"$keyed_home/api-key"
start_server "$keyed_home" "$keyed_home/serve.log" --api-key-file "$keyed_home/api-key"
export HEARTH_KEYED_URL="$started_url"
# A third, over HTTPS from its profile's own certificate authority, listening beyond loopback (so with a key) as a
# server a phone reaches does.
printf '%s\n' "$HEARTH_KEYED_KEY" >"$tls_home/api-key"
start_server "$tls_home" "$tls_home/serve.log" --tls --host 0.0.0.0 --api-key-file "$tls_home/api-key" \
  --allow-host phone.hearth.test
tls_port="${started_url##*:}"
# A fourth, whose pushes go to the push test's own push service on loopback (so private addresses are allowed).
start_server "$push_home" "$push_home/serve.log" --allow-private-network
push_url="$started_url"
echo "web tests: server at $url"

# jfk.wav (whisper.cpp's sample) is what the speech tests transcribe: through the client and, as the fake
# microphone's input, in the browser.
export HEARTH_JFK_WAV="$HEARTH_WHISPER_PREFIX/samples/jfk.wav"
"$python" "$root/Tests/web/openai_client_test.py" "$url"
# HTTPS as a phone meets it: Chromium trusting the profile's authority from its own certificate store; a phone
# pairing with a code and revoked.
HEARTH_TLS_AUTHORITY="$tls_home/tls/authority.pem" HEARTH_TLS_KEY="$HEARTH_KEYED_KEY" HEARTH_PLAIN_URL="http://phone.hearth.test:${url##*:}" \
  "$python" "$root/Tests/web/tls_test.py" "https://phone.hearth.test:$tls_port" "$@"
# Web Push: a push service on loopback receives a test notification and a reminder coming due, read by a receiver
# of the test's own; Chromium's service worker shows a pushed notice.
"$python" "$root/Tests/web/push_test.py" "$push_url"
# The official Anthropic client against the Messages API (and the keyed server, with x-api-key).
"$python" "$root/Tests/web/anthropic_client_test.py" "$url"
# The official MCP client: `hearth mcp` on stdio (profiles of its own) and the server's /mcp.
HEARTH_BIN="$hearth" HEARTH_EMBEDDING_MODEL="$HEARTH_MODELS_CACHE/$MINILM_FILE" \
  "$python" "$root/Tests/web/mcp_client_test.py" "$url"
# Hearth as an MCP client: mcp-server-time from PyPI and a server that crashes and hangs, through the CLI.
HEARTH_BIN="$hearth" HEARTH_MODEL="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" "$python" "$root/Tests/web/mcp_tools_test.py"
# A real CalDAV server (Radicale, from scripts/setup-dav.sh) for the Accounts page, with one user and a calendar
# the "phone" (Python's caldav client) filled.
dav_python="$HEARTH_CACHE/venv-dav/bin/python"
dav_home="$(mktemp -d)"
dav_port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
printf 'alice:web-test-password\n' >"$dav_home/users"
"$HEARTH_CACHE/venv-dav/bin/radicale" --server-hosts "127.0.0.1:$dav_port" --auth-type htpasswd \
  --auth-htpasswd-filename "$dav_home/users" --auth-htpasswd-encryption plain \
  --storage-filesystem-folder "$dav_home/storage" >"$dav_home/radicale.log" 2>&1 &
servers+=("$!")
export HEARTH_DAV_URL="http://127.0.0.1:$dav_port/" HEARTH_DAV_USER=alice HEARTH_DAV_PASSWORD=web-test-password
for _ in $(seq 1 100); do
  if "$python" -c "import socket; socket.create_connection(('127.0.0.1', $dav_port), 1)" 2>/dev/null; then break; fi
  sleep 0.1
done
phone() { "$dav_python" "$root/scripts/dav-phone.py" --url "$HEARTH_DAV_URL" --user alice --password web-test-password "$@"; }
phone make-calendar family Family
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:web-phone-1\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20271001T090000Z\r\nDTEND:20271001T100000Z\r\nSUMMARY:Harvest festival\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' >"$dav_home/event.ics"
phone save family "$dav_home/event.ics"

# The browser test also runs `hearth` on the server's profile, as a user in another terminal would.
# It also downloads a model through the Models page, from a local web server, checked against its SHA-256.
HEARTH_BIN="$hearth" HEARTH_PROFILE="$home" HEARTH_EMBEDDING_MODEL="$HEARTH_MODELS_CACHE/$MINILM_FILE" \
  HEARTH_PULL_FILE="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" HEARTH_PULL_SHA256="$SMOLLM2_SHA256" \
  "$python" "$root/Tests/web/browser_test.py" "$url" "$@"
# The app as people expect a chat app to behave: the phone drawer, Markdown, errors that keep what was typed,
# chats answering side by side, shortcuts, and contrast and touch-target checks (light and dark, desktop and phone).
"$python" "$root/Tests/web/polish_test.py" "$url" "$@"

# The server logs each request and each generation, and nothing the user or the model wrote.
for expected in " request" " generation"; do
  grep -q -- "$expected" "$log" || { cat "$log" >&2; echo "web tests: no '$expected' line in the server's log" >&2; exit 1; }
done
for written in "capital of France" "Count from 1 to 300" "Geography questions" "Paris" "padlock" "Hammarby"; do
  if grep -q -i -- "$written" "$log"; then
    echo "web tests: the server's log contains what was written (\"$written\")" >&2
    exit 1
  fi
done
echo "web tests: the server's log holds no user content ($(wc -l <"$log") lines)"
