# Runs a long set-up step with its whole output kept in a log file, showing only a progress line now and
# then (from build tools' "[ 45%]" or "[412/1144]" lines); when the step fails, the end of its log is
# printed. Sourced by the other scripts.
# shellcheck shell=bash

# run_logged LABEL LOG COMMAND...
run_logged() {
  local label="$1" log="$2"
  shift 2
  mkdir -p "$(dirname "$log")"
  set +e
  "$@" 2>&1 </dev/null | tee -a "$log" | awk -v label="$label" '
    function report(p) {
      if (p >= last + 10 || (p == 100 && last < 100)) { printf "%s: %d%%\n", label, p; last = p; fflush() }
    }
    BEGIN { last = -10 }
    /^\[ *[0-9]+%\]/ { s = $0; sub(/^\[ */, "", s); sub(/%.*/, "", s); report(s + 0); next }
    # SwiftPM counts "[done/known]" while it still discovers work: small counts are its planning steps.
    /^\[[0-9]+\/[0-9]+\]/ { s = $0; sub(/^\[/, "", s); split(s, n, /[\/\]]/); if (n[2] >= 50) report(int(100 * n[1] / n[2])) }'
  local codes=("${PIPESTATUS[@]}")
  set -e
  if [[ ${codes[0]} -ne 0 ]]; then
    echo "$label: failed (exit ${codes[0]}); the errors and the last lines of $log:" >&2
    grep -E "(error|Error|ERROR)[: ]" "$log" | head -n 30 >&2 || true
    echo "…" >&2
    tail -n 40 "$log" >&2
    return "${codes[0]}"
  fi
}
