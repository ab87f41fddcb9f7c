#!/usr/bin/env python3
"""The Swift suites of `make test`'s first lane, derived from the `.heavy` trait.

A suite that loads a model or starts a process carries `.heavy` (Tests/HearthTestSupport/HeavyTests.swift). Those
suites are shared out between the two lanes so that both end at about the same time, from the seconds each took when
last measured (scripts/suite-seconds.tsv; a heavy suite not listed there counts as DEFAULT_SECONDS). Every other
suite is light and goes to the second lane. The first lane also runs the shifted-clock tests, the second the web
tests: their measured spans are the lanes' starting loads.

  scripts/test-lanes.py                  the first lane's filter (a regular expression over test IDs)
  scripts/test-lanes.py --plan           the plan: each lane's suites and expected seconds
  scripts/test-lanes.py --check          fails naming each suite that loads a model or starts a process without
                                         `.heavy` (run by `make lint`)
  scripts/test-lanes.py --record [DIR]   rewrites suite-seconds.tsv from the logs of a whole `make test` run
                                         (DIR: the logs folder, $HEARTH_CACHE/logs by default)
"""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMES = ROOT / "scripts" / "suite-seconds.tsv"
DEFAULT_SECONDS = 10.0
# Measured on the 2-core machine (see suite-seconds.tsv's header); they set where the lanes start.
FIRST_LANE_AFTER = "shifted-clock"
SECOND_LANE_AFTER = "web-tests"

SUITE = re.compile(
    r'^@Suite(?:\((?P<args>(?:[^()]|\([^()]*\))*)\))?\s*(?:@\w+(?:\([^)]*\))?\s*)*'
    r'(?:(?:public|internal|final|@\w+)\s+)*(?:struct|class|enum|actor)\s+(?P<name>\w+)',
    re.MULTILINE)
DISPLAY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"')


def suites():
    """Every top-level suite: (type name, display name, heavy)."""
    found = []
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for match in SUITE.finditer(text):
            args = match.group("args") or ""
            display = DISPLAY.match(args)
            heavy = re.search(r'(^|[\s,])\.heavy\b', args) is not None
            found.append((match.group("name"), display.group(1) if display else match.group("name"), heavy))
    return found


# What makes a suite heavy, as it reads in a suite's own lines: a real model loaded, a `hearth` or other child
# process, a live server on a port.
HEAVY_WORK = [r"LocalModel\.load\(", r"\bCommandRunner\(", r"\.runProcess\(", r"\bProcess\(\)", r"LiveServer\.live\("]


def unmarked():
    """Suites whose lines do heavy work but that lack `.heavy`, where the trait can be given (the file imports
    HearthTestSupport; the pure test targets cannot depend on it)."""
    found = []
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        if "import HearthTestSupport" not in text:
            continue
        matches = list(SUITE.finditer(text))
        for index, match in enumerate(matches):
            if re.search(r'(^|[\s,])\.heavy\b', match.group("args") or ""):
                continue
            body = text[match.start():matches[index + 1].start() if index + 1 < len(matches) else len(text)]
            work = [pattern for pattern in HEAVY_WORK if re.search(pattern, body)]
            if work:
                found.append(f"{path.relative_to(ROOT)}: {match.group('name')} ({', '.join(work)})")
    return found


def measured():
    times = {}
    if TIMES.exists():
        for line in TIMES.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                name, seconds = line.split("\t")
                times[name] = float(seconds)
    return times


def plan():
    times = measured()
    all_suites = suites()
    heavy = sorted(
        ((times.get(name, DEFAULT_SECONDS), name) for name, _, is_heavy in all_suites if is_heavy), reverse=True)
    light = sum(times.get(name, 1.0) for name, _, is_heavy in all_suites if not is_heavy)
    lanes = [
        {"load": times.get(FIRST_LANE_AFTER, 0.0), "suites": []},
        {"load": times.get(SECOND_LANE_AFTER, 0.0) + light, "suites": []},
    ]
    # The longest first, each to the lane that ends sooner: within a few percent of the best split.
    for seconds, name in heavy:
        lane = min(lanes, key=lambda lane: lane["load"])
        lane["load"] += seconds
        lane["suites"].append(name)
    return lanes


def record(folder):
    """Seconds per suite from swift-testing's "Suite … passed after N seconds." lines, by type name, and the
    shifted-clock and web tests' spans that scripts/run-tests.sh wrote beside them."""
    by_display = {display: name for name, display, _ in suites()}
    line = re.compile(r'^\S+ Suite "?(.*?)"? (?:passed|failed) after ([\d.]+) seconds')
    # A suite whose tests were split between the lanes is in both logs: its parts add up.
    found = {}
    for log in sorted(folder.glob("swift-test-*.log")):
        for text in log.read_text(encoding="utf-8", errors="replace").splitlines():
            match = line.match(text)
            if match and match.group(1) in by_display:
                name = by_display[match.group(1)]
                found[name] = found.get(name, 0.0) + float(match.group(2))
    times = measured()
    times.update({name: round(seconds, 1) for name, seconds in found.items()})
    for part in (FIRST_LANE_AFTER, SECOND_LANE_AFTER):
        span = folder / f"{part}.seconds"
        if span.exists():
            times[part] = float(span.read_text().strip())
    known = {name for name, _, _ in suites()} | {FIRST_LANE_AFTER, SECOND_LANE_AFTER}
    rows = sorted((name, seconds) for name, seconds in times.items() if name in known)
    TIMES.write_text(
        "# Seconds each Swift suite took in `make test` on the 2-core machine, and the shifted-clock and web tests'\n"
        "# spans; scripts/test-lanes.py shares the heavy suites out by them (--record rewrites this file).\n"
        + "".join(f"{name}\t{seconds}\n" for name, seconds in rows), encoding="utf-8")


def main(arguments):
    if arguments[:1] == ["--record"]:
        cache = os.environ.get("HEARTH_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "hearth")
        record(pathlib.Path(arguments[1] if len(arguments) > 1 else os.path.join(cache, "logs")))
    elif arguments[:1] == ["--check"]:
        missing = unmarked()
        for line in missing:
            print(f"test-lanes: loads a model or starts a process without .heavy: {line}", file=sys.stderr)
        if missing:
            sys.exit(1)
        print(f"test-lanes: {sum(1 for _, _, heavy in suites() if heavy)} of {len(suites())} suites are heavy, "
              "and every suite that loads a model or starts a process is among them")
    elif arguments[:1] == ["--plan"]:
        for index, lane in enumerate(plan(), start=1):
            print(f"lane {index}: {lane['load']:.0f} s expected, {len(lane['suites'])} heavy suites")
            for name in lane["suites"]:
                print(f"  {name}")
    elif not arguments:
        first = plan()[0]["suites"]
        print(r"\.(" + "|".join(sorted(first)) + r")(/|$)")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
