#!/usr/bin/env bash
# Debian packages Hearth uses at run time: poppler-utils (`pdftotext`) reads the text of PDF documents
# added to the memory.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"

if ! command -v pdftotext >/dev/null 2>&1; then
  echo "system: installing poppler-utils from Debian (PDF text for the memory)"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  mkdir -p "$HEARTH_CACHE/logs"
  run_logged "system: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "system: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils
fi
