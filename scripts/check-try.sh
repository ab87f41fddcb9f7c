#!/usr/bin/env bash
# Fails on a new `try?` in the engine: a `try?` turns a failure into a quiet default (an empty calendar, no
# memory), and a turn then answers confidently from nothing. Each file may keep the number it has in
# scripts/try-allowed.txt (cleanup and best-effort calls, written down as they are reviewed); a file with more
# fails, naming itself. A failure an operator should know of is logged or thrown instead. When a `try?` goes,
# lower the file's number (`scripts/check-try.sh --update` writes the counts as they are now).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
allowed="$root/scripts/try-allowed.txt"
counts() {
  (cd "$root" && grep -rc "try?" Sources/HearthEngine --include=*.swift | awk -F: '$2>0 {print $2" "$1}' | sort -k2)
}
if [[ "${1:-}" == "--update" ]]; then
  counts >"$allowed"
  exit 0
fi
status=0
while read -r count file; do
  limit="$(awk -v f="$file" '$2 == f {print $1}' "$allowed")"
  if ((count > ${limit:-0})); then
    echo "check-try: $file has $count try? (allowed ${limit:-0}): log or throw the failure instead" >&2
    status=1
  fi
done < <(counts)
((status == 0)) && echo "check-try: $(counts | awk '{n += $1} END {print n + 0}') try? in HearthEngine, none new"
exit "$status"
