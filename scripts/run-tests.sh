#!/usr/bin/env bash
# Runs the whole test suite after the build: the Swift tests, then the web tests, and ends with one
# summary whatever happened. The web tests run even when Swift tests failed, so one failure does not hide
# others. If the Swift test process itself dies (a crash in process ends it before its own summary), the
# summary is counted from the results it printed, and names the last test that started.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
log="$HEARTH_CACHE/logs/swift-test.log"
mkdir -p "$(dirname "$log")"

HEARTH_TESTS_SERIAL=1 swift test --skip-build --no-parallel 2>&1 | tee "$log"
swift_status=${PIPESTATUS[0]}
if ((swift_status != 0)) && ! grep -qE '^[^ ]* Test run with [0-9]+ tests?' "$log"; then
  passed="$(grep -cE '^[^ ]* Test .* passed after' "$log")"
  failed="$(grep -cE '^[^ ]* Test .* failed after' "$log")"
  last="$(grep -E '^[^ ]* Test .* started\.$' "$log" | tail -n1 | sed -E 's/^[^ ]* Test (.*) started\.$/\1/')"
  echo "swift test: the test process ended (exit $swift_status) before its summary; the last test started was ${last:-none}"
  echo "swift tests: $passed passed, $((failed + 1)) failed"
fi

"$here/web-tests.sh"
web_status=$?

if ((swift_status != 0 || web_status != 0)); then
  echo "make test: FAILED (swift tests: exit $swift_status, web tests: exit $web_status)"
  exit 1
fi
echo "make test: swift tests and web tests passed"
