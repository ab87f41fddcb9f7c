#!/usr/bin/env bash
# A build step for the Makefile: its whole output goes to a log in the cache, the terminal sees progress.
#   scripts/logged.sh LABEL LOG-NAME COMMAND...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"
label="$1"
log="$HEARTH_CACHE/logs/$2.log"
shift 2
rm -f "$log"
echo "$label (log: $log)"
run_logged "$label" "$log" "$@"
