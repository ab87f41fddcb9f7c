#!/usr/bin/env python3
"""Prints the pass counts per test file of the llama.cpp server suite, llama-server beside Hearth, from
the JUnit XML files scripts/compat.sh leaves in RESULTS, and writes each mode's failing tests, with the
first line of their reason, to RESULTS/MODE-failures.txt.
  report.py RESULTS FILE...
"""

from __future__ import annotations

import collections
import json
import os
import sys
import time
import xml.etree.ElementTree as ET

MODES = (("llama", "llama-server"), ("hearth", "hearth"))


def outcome(case: ET.Element) -> tuple[str, str]:
    for kind in ("failure", "error", "skipped"):
        node = case.find(kind)
        if node is not None:
            text = (node.get("message") or node.text or "").strip()
            return kind, text.splitlines()[0][:200] if text else ""
    return "passed", ""


def load(path: str) -> dict[str, list[tuple[str, str, str]]]:
    """Per test file: (test id, outcome, reason) of each test case."""
    per_file: dict[str, list[tuple[str, str, str]]] = collections.defaultdict(list)
    for case in ET.parse(path).getroot().iter("testcase"):
        file = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        kind, reason = outcome(case)
        per_file[file].append((f"{file}::{case.get('name')}", kind, reason))
    return per_file


def main() -> None:
    results, files = sys.argv[1], sys.argv[2:]
    runs = {}
    for mode, _ in MODES:
        path = os.path.join(results, f"{mode}.xml")
        if os.path.exists(path):
            runs[mode] = load(path)

    def cell(mode: str, file: str) -> str:
        if mode not in runs:
            return "not run"
        cases = [c for c in runs[mode].get(file, []) if c[1] != "skipped"]
        passed = sum(1 for c in cases if c[1] == "passed")
        return f"{passed}/{len(cases)}"

    rows = [("file", *(title for _, title in MODES))]
    for file in files:
        rows.append((file, *(cell(mode, file) for mode, _ in MODES)))
    totals = ["total"]
    for mode, _ in MODES:
        if mode not in runs:
            totals.append("not run")
            continue
        cases = [c for f in files for c in runs[mode].get(f, []) if c[1] != "skipped"]
        totals.append(f"{sum(1 for c in cases if c[1] == 'passed')}/{len(cases)}")
    rows.append(tuple(totals))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print()
    for n, row in enumerate(rows):
        print("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(row)))
        if n == 0 or n == len(rows) - 2:
            print("  ".join("-" * w for w in widths))
    print("(passed/run; skipped tests are left out, slow tests are deselected)")

    for mode, title in MODES:
        if mode not in runs:
            continue
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(os.path.join(results, f"{mode}.xml"))))
        print(f"{title}: results of {when}, full output in {os.path.join(results, mode + '.log')}")
        failing = [c for f in files for c in runs[mode].get(f, []) if c[1] in ("failure", "error")]
        path = os.path.join(results, f"{mode}-failures.txt")
        with open(path, "w", encoding="utf-8") as out:
            for test_id, kind, reason in failing:
                out.write(f"{test_id}  [{kind}] {reason}\n")
        print(f"{title}: {len(failing)} failing tests listed in {path}")

    gaps_log = os.path.join(results, "hearth-gaps.log")
    if "hearth" in runs and os.path.exists(gaps_log):
        counts: collections.Counter[str] = collections.Counter()
        launches = 0
        with open(gaps_log, encoding="utf-8") as log:
            for line in log:
                launches += 1
                counts.update({g.split(" ")[0] for g in json.loads(line)})
        print(f"hearth: flags with no Hearth equivalent, dropped ({launches} launches had at least one):")
        print("  " + ", ".join(f"{flag} ×{n}" for flag, n in counts.most_common()))


if __name__ == "__main__":
    main()
