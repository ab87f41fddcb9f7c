#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that take outside bytes. The fuzzing program (Fuzz/HearthFuzz) is built
# with libFuzzer and AddressSanitizer in a build folder of its own, then run for SECONDS per target from a copy of
# the target's committed seed corpus (Fuzz/Corpus/<TARGET>); what it learns stays in .build/fuzz/corpus. A crash
# is kept in .build/fuzz/crashes/<TARGET> and fails the run; every target still runs. Prints executions and
# coverage per target.
#   scripts/fuzz.sh [SECONDS] [TARGET…]     (HEARTH_FUZZ_BUILD: another build folder, for a second run beside one)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-600}"
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(ActionBlocks SchemaGrammar ICalendar VCard Multistatus SyncedBodies MarkdownNotes WAV GGUF Multipart)
fi
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a number, not $seconds" >&2; exit 2; }

build="${HEARTH_FUZZ_BUILD:-$root/.build/fuzz}"
mkdir -p "$build"
summary=()
failed=0
echo "fuzz: building HearthFuzz with libFuzzer and AddressSanitizer"
swift build -c release --package-path "$root" --build-path "$build/swift" --product HearthFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DHEARTH_FUZZING >"$build/build.log" 2>&1 || {
  tail -20 "$build/build.log" >&2
  echo "fuzz: HearthFuzz did not build (log: $build/build.log)" >&2
  exit 1
}
for target in "${targets[@]}"; do
  [[ -d "$root/Fuzz/Corpus/$target" ]] || { echo "fuzz: no target $target (Fuzz/Corpus/$target)" >&2; exit 2; }
  corpus="$build/corpus/$target"
  crashes="$build/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  cp -n "$root/Fuzz/Corpus/$target/"* "$corpus/"
  log="$build/$target.log"
  echo "fuzz: running $target for $seconds s"
  status=0
  HEARTH_FUZZ_TARGET="$target" "$build/swift/release/HearthFuzz" "$corpus" -max_total_time="$seconds" \
    -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$crashes/" \
    >"$log" 2>&1 || status=$?
  executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")"
  coverage="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || echo "cov: ?")"
  if [[ $status -ne 0 ]]; then
    failed=1
    summary+=("$target: FAILED after $executions executions ($coverage); see $log and $crashes")
  else
    summary+=("$target: $executions executions in $seconds s, no crash ($coverage)")
  fi
done
echo
printf '%s\n' "${summary[@]}"
exit "$failed"
