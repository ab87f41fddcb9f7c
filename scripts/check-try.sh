#!/usr/bin/env bash
# Fails on a `try?` in the engine that is not written down: a `try?` turns a failure into a quiet default (an
# empty calendar, no memory), and a turn then answers confidently from nothing. A failure an operator should
# know of is logged (`logger.attempt`) or thrown instead. What is left is cleanup (closing a file, removing a
# temporary one, shutting a client down), a probe whose "no" is its answer (is the file there, is this JSON),
# or a step retried later; scripts/try-allowed.txt holds, for each file, how many it has and why, and the
# check fails when a file has more or fewer than it says (so the list stays the list of what is left).
# `scripts/check-try.sh --update` writes the counts as they are now, keeping each file's reason.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
allowed="$root/scripts/try-allowed.txt"
counts() {
  (cd "$root" && grep -rcE '(^|[^[:alnum:]_])try\?' Sources/HearthEngine --include=*.swift |
    awk -F: '$2>0 {print $2" "$1}' | sort -k2)
}
reason() { awk -v f="$1" '$2 == f { sub(/^[0-9]+ [^ ]+ +/, ""); print }' "$allowed"; }
if [[ "${1:-}" == "--update" ]]; then
  next="$(mktemp)"
  while read -r count file; do
    why="$(reason "$file")"
    echo "$count $file ${why:-# why: (write the reason)}" >>"$next"
  done < <(counts)
  mv "$next" "$allowed"
  exit 0
fi
status=0
while read -r count file; do
  limit="$(awk -v f="$file" '$2 == f {print $1}' "$allowed")"
  if ((count > ${limit:-0})); then
    echo "check-try: $file has $count try? (allowed ${limit:-0}): log or throw the failure instead" >&2
    status=1
  elif ((count < limit)); then
    echo "check-try: $file has $count try?, fewer than the $limit allowed: lower its number in $allowed" >&2
    status=1
  fi
  if [[ "$(reason "$file")" != "# "* ]] || [[ "$(reason "$file")" == *"(write the reason)"* ]]; then
    echo "check-try: $file: say in $allowed why its try? may stay" >&2
    status=1
  fi
done < <(counts)
while read -r limit file _; do
  if ! counts | awk -v f="$file" '$2 == f {found = 1} END {exit !found}'; then
    echo "check-try: $file has no try? left: remove its line from $allowed" >&2
    status=1
  fi
done <"$allowed"
((status == 0)) && echo "check-try: $(counts | awk '{n += $1} END {print n + 0}') try? in HearthEngine, each written down"
exit "$status"
