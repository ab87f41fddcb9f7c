#!/usr/bin/env bash
# What the browser and client tests need: Debian's chromium and its driver, and a virtual environment in
# the cache with the pinned Python packages (selenium, openai), installed only by matching SHA-256.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "browser: installing chromium and chromium-driver from Debian"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  run_logged "browser: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "browser: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi

# NSS's certutil, with which the HTTPS test gives a browser profile the local certificate authority to trust.
if ! command -v certutil >/dev/null 2>&1; then
  echo "browser: installing libnss3-tools from Debian"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  run_logged "browser: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "browser: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnss3-tools
fi

# Other programs' calendar and contact parsers, for the interchange tests: Debian's python3-icalendar and
# python3-vobject, run by the system's /usr/bin/python3.
if ! /usr/bin/python3 -c "import icalendar, vobject" >/dev/null 2>&1; then
  echo "browser: installing python3-icalendar and python3-vobject from Debian"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  run_logged "interchange: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "interchange: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-icalendar python3-vobject
fi

requirements="$here/requirements-test.txt"
venv="$HEARTH_CACHE/venv-test"
want="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ -f "$venv/.requirements" && "$(cat "$venv/.requirements")" == "$want" ]]; then
  echo "browser: test environment cached at $venv"
  exit 0
fi
echo "browser: creating the test environment at $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary :all: --require-hashes \
  -r "$requirements"
echo "$want" >"$venv/.requirements"
