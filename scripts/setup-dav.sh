#!/usr/bin/env bash
# The CalDAV/CardDAV peers the sync tests run against: Radicale and Xandikos (real servers, started on loopback
# by the tests) and Python's caldav client (the user's phone), in a virtual environment of their own in the
# cache, installed only by matching SHA-256 (scripts/requirements-dav.txt).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
requirements="$here/requirements-dav.txt"
venv="$HEARTH_CACHE/venv-dav"
want="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ -f "$venv/.requirements" && "$(cat "$venv/.requirements")" == "$want" ]]; then
  echo "dav: servers cached at $venv"
  exit 0
fi
echo "dav: creating the CalDAV/CardDAV test servers' environment at $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary :all: --require-hashes \
  -r "$requirements"
"$venv/bin/python" -c "import caldav, caldav_server_tester, radicale, vdirsyncer, xandikos.web"
echo "$want" >"$venv/.requirements"
