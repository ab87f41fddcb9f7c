#!/usr/bin/env bash
# Runs the whole test suite after the build: the Swift tests, then the web tests, and ends with one
# summary whatever happened. The web tests run even when Swift tests failed, so one failure does not hide
# others. If a Swift test process itself dies (a crash in process ends it before its own summary), the
# summary is counted from the results it printed, and names the last test that started.
#
# On a machine with two CPUs or more the suite runs in two lanes, each pinned to a CPU of its own (`taskset`):
# about half of the heavy suites (those with the `.heavy` trait, shared out by scripts/test-lanes.py from their
# measured seconds) in one, the rest and then the web tests in the other (their `hearth serve`
# pinned to that lane's CPU; Chromium, which draws the answers, runs wherever the system has room). Every test still runs
# one at a time within its lane, so a time limit sees the same speed in every run; the models use one thread
# per lane (Hearth's threads follow the CPUs a process may use), so the lanes never wait on each other's
# spinning threads. Every test runs in exactly one lane: the second lane skips what the first one filters.
# HEARTH_TEST_LANES=1 runs everything in one lane, one test at a time. The first lane ends with the date-sensitive
# tests run again under a shifted clock, on each day of a week (scripts/shifted-clock-tests.sh).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
logs="$HEARTH_CACHE/logs"
mkdir -p "$logs"
tests="$(swift build --show-bin-path)/HearthPackageTests.xctest"

# The suites of the first lane: heavy suites (the `.heavy` trait) shared out by their measured seconds so that
# both lanes end together, the second lane taking every light suite and the web tests (scripts/test-lanes.py).
# An empty filter would put every test in the first lane and skip them all in the second: no plan, no run.
heavy="$("$here/test-lanes.py")" && [[ -n "$heavy" ]] || { echo "make test: scripts/test-lanes.py gave no lanes" >&2; exit 1; }

# swift_tests LOG [filter flags…]: the Swift tests the flags select, one at a time; its exit status.
swift_tests() {
  local log="$1"
  shift
  HEARTH_TESTS_SERIAL=1 "$tests" --testing-library swift-testing --no-parallel "$@" >"$log" 2>&1
  local status=$?
  if ((status != 0)) && ! grep -qE '^[^ ]* Test run with [0-9]+ tests?' "$log"; then
    local passed failed last
    passed="$(grep -cE '^[^ ]* Test .* passed after' "$log")"
    failed="$(grep -cE '^[^ ]* Test .* failed after' "$log")"
    last="$(grep -E '^[^ ]* Test .* started\.$' "$log" | tail -n1 | sed -E 's/^[^ ]* Test (.*) started\.$/\1/')"
    {
      echo "swift test: the test process ended (exit $status) before its summary; the last test started was ${last:-none}"
      echo "swift tests: $passed passed, $((failed + 1)) failed"
    } >>"$log"
  fi
  return $status
}

lanes=2
if [[ "${HEARTH_TEST_LANES:-}" == 1 ]] || ! command -v taskset >/dev/null || (($(nproc) < 2)); then lanes=1; fi

if ((lanes == 1)); then
  swift_tests "$logs/swift-test.log"
  swift_status=$?
  cat "$logs/swift-test.log"
  "$here/shifted-clock-tests.sh"
  shifted_status=$?
  "$here/web-tests.sh"
  web_status=$?
else
  # The lanes' CPUs: the first two this process may run on.
  read -r first second < <(taskset -cp $$ | sed -E 's/.*: //' | tr ',' '\n' |
    awk -F- '{ if (NF == 2) { for (c = $1; c <= $2; c++) print c } else print $1 }' | head -n2 | tr '\n' ' ')
  rm -f "$logs"/swift-test-[12].status "$logs"/{web-tests,shifted-clock}.{status,seconds}
  echo "tests: two lanes, on CPUs $first and $second (logs in $logs); $("$here/test-lanes.py" --plan | grep '^lane' | paste -sd ';' | sed 's/;/; /')"
  (
    taskset -c "$first" bash -c "$(declare -f swift_tests); tests='$tests'; swift_tests '$logs/swift-test-1.log' --filter '$heavy'"
    echo $? >"$logs/swift-test-1.status"
    # The date-sensitive tests again on each day of a week, near midnight (scripts/shifted-clock-tests.sh).
    started=$SECONDS
    HEARTH_SERVER_CPUS="$first" "$here/shifted-clock-tests.sh" >"$logs/shifted-clock.log" 2>&1
    echo $? >"$logs/shifted-clock.status"
    echo $((SECONDS - started)) >"$logs/shifted-clock.seconds"
  ) &
  first_lane=$!
  (
    taskset -c "$second" bash -c "$(declare -f swift_tests); tests='$tests'; swift_tests '$logs/swift-test-2.log' --skip '$heavy'"
    echo $? >"$logs/swift-test-2.status"
    started=$SECONDS
    HEARTH_SERVER_CPUS="$second" "$here/web-tests.sh" >"$logs/web-tests.log" 2>&1
    echo $? >"$logs/web-tests.status"
    echo $((SECONDS - started)) >"$logs/web-tests.seconds"
  ) &
  second_lane=$!
  # A line a minute while the lanes run (their logs are printed whole at the end).
  passed_in() { grep -cE '^[^ ]* Test .* passed after' "$logs/$1.log" 2>/dev/null || true; }
  (while sleep 60; do
    echo "tests: $(passed_in swift-test-1) + $(passed_in swift-test-2) Swift tests passed so far"
  done) &
  ticker=$!
  wait "$first_lane" "$second_lane"
  kill "$ticker" 2>/dev/null
  wait "$ticker" 2>/dev/null
  for part in swift-test-1 swift-test-2 shifted-clock web-tests; do
    echo "━━ $part"
    cat "$logs/$part.log"
  done
  # A lane that was killed before it wrote its status counts as failed.
  lane_status() { cat "$logs/$1.status" 2>/dev/null || echo 1; }
  swift_status=$(($(lane_status swift-test-1) || $(lane_status swift-test-2)))
  web_status=$(lane_status web-tests)
  shifted_status=$(lane_status shifted-clock)
fi

if ((swift_status != 0 || web_status != 0 || shifted_status != 0)); then
  echo "make test: FAILED (swift tests: exit $swift_status, web tests: exit $web_status, shifted clock: exit $shifted_status)"
  exit 1
fi
echo "make test: swift tests, web tests and the shifted-clock runs passed"
