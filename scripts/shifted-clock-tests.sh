#!/usr/bin/env bash
# Runs the date-sensitive tests on every day of a week and late and early in the day, under Debian's faketime, so
# the suite passes whatever day and hour `make test` runs at (a Sunday once failed: "next week" was two clicks
# away there). For each of the seven days from the coming Monday — at 00:10 on some and 23:20 on others, so
# "today", "tomorrow" and "next week" fall near midnight too — it runs:
#   - the Swift suites that read the real clock for dates (the calendar, reminder and briefing commands, the
#     action service, notices, iCalendar, the store), in the test binary run at that time;
#   - the calendar and reminder pages' browser tests, with `hearth serve`, Chromium and the test itself all at
#     that time.
# The clock is shifted by an offset (FAKETIME="+Ns"), so every process sees the same time and it runs on as usual;
# monotonic clocks move by the same offset (left alone, Python's sleeps fail under libfaketime), so time limits and
# timers measure the same spans as on any day.
#   scripts/shifted-clock-tests.sh [DAYS]   (DAYS: how many of the seven, default 7)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

days="${1:-7}"
hearth="${HEARTH_BIN:-$root/.build/debug/hearth}"
tests="$(swift build --show-bin-path)/HearthPackageTests.xctest"
python="$HEARTH_CACHE/venv-test/bin/python"
library="$(dpkg -L libfaketime 2>/dev/null | grep -m1 'libfaketime.so.1$' || true)"
[[ -n "$library" ]] || { echo "shifted clock: libfaketime is missing (scripts/setup-system.sh installs it)" >&2; exit 1; }

swift_suites='\.(DataCommandsTests|BriefingCommandTests|BriefingTests|ActionServiceTests|ActionTransactionTests|NoticeAPITests|NoticeServiceTests|ICalendarTests|StoreTests|ReminderRecurrenceTests)/?'
browser_tests=(
  PolishTest.test_10_the_calendar_on_a_phone_a_line_at_now_and_one_event_of_a_series
  PolishTest.test_11_a_reminder_is_edited_where_it_is_listed
  PolishTest.test_14_an_event_is_dragged_to_another_hour_and_its_end_stretched
  PolishTest.test_15_a_repeating_reminder_comes_back_and_every_step_is_undone
  PolishTest.test_16_a_page_that_could_not_load_says_so_offers_retry_and_draws_itself_when_hearth_is_back
  PolishTest.test_18_on_a_phone_a_finger_held_on_an_event_moves_it_and_a_swipe_still_scrolls
)

# HEARTH_SERVER_CPUS pins the Swift tests and the server to those CPUs, as the lanes of `make test` do; Chromium
# runs wherever the system has room.
pin=()
if [[ -n "${HEARTH_SERVER_CPUS:-}" ]]; then pin=(taskset -c "$HEARTH_SERVER_CPUS"); fi

work="$(mktemp -d)"
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A profile with one chat in it (the browser tests take the export format from a chat), made once on today's
# clock and copied for each day.
template="$work/template"
mkdir -p "$template"
HEARTH_HOME="$template" "$hearth" ask --model "$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" --no-memory --max-tokens 4 \
  "Say hello" >"$work/ask.log" 2>&1 || { cat "$work/ask.log" >&2; exit 1; }

monday="$(date -d 'next monday' +%F)"
failed=()
for ((day = 0; day < days; day++)); do
  hour=$((day % 2 == 0 ? 0 : 23))
  minute=$((day % 2 == 0 ? 10 : 20))
  target="$(date -d "$monday +$day days $hour:$minute" +%s)"
  offset=$((target - $(date +%s)))
  label="$(date -d "@$target" '+%a %F %H:%M')"
  shifted=(env LD_PRELOAD="$library" FAKETIME="+${offset}s" FAKETIME_NO_CACHE=1)
  # A Swift program must not be the first process libfaketime starts in: its set-up changes the environment
  # as the program starts, and Swift then reads no command-line arguments. Started by `timeout` (which gets
  # that set-up), it reads them as usual.
  parent=(timeout --foreground 3600)
  echo "shifted clock: $label"
  [[ "$("${shifted[@]}" date '+%a %F %H:%M')" == "$label" ]] || { echo "shifted clock: faketime did not take" >&2; exit 1; }

  log="$work/swift-$day.log"
  if ! "${shifted[@]}" HEARTH_TESTS_SERIAL=1 "${parent[@]}" ${pin[@]+"${pin[@]}"} "$tests" --testing-library swift-testing --no-parallel \
    --filter "$swift_suites" >"$log" 2>&1; then
    cat "$log"
    failed+=("Swift tests at $label")
  fi
  grep -E '^[^ ]* Test run with' "$log" | sed "s/^/  /" || true

  profile="$work/day-$day"
  cp -r "$template" "$profile"
  "${shifted[@]}" HEARTH_HOME="$profile" "${parent[@]}" ${pin[@]+"${pin[@]}"} "$hearth" serve --port 0 --model "$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" \
    >"$profile/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 1 300); do
    grep -q "Hearth is listening on" "$profile/serve.log" && break
    kill -0 "$server" 2>/dev/null || { cat "$profile/serve.log" >&2; exit 1; }
    sleep 0.1
  done
  url="$(grep -o 'http://[^ ]*' "$profile/serve.log" | head -1)"
  [[ -n "$url" ]] || { cat "$profile/serve.log" >&2; echo "shifted clock: the server gave no address" >&2; exit 1; }
  if ! "${shifted[@]}" "$python" "$root/Tests/web/polish_test.py" "$url" "${browser_tests[@]}" \
    >"$work/web-$day.log" 2>&1; then
    cat "$work/web-$day.log"
    failed+=("browser tests at $label")
  fi
  tail -n 3 "$work/web-$day.log" | sed "s/^/  /"
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=""
done

if ((${#failed[@]} > 0)); then
  printf 'shifted clock: FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "shifted clock: the date-sensitive tests passed on $days days"
