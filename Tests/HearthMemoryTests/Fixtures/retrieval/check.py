#!/usr/bin/env python3
"""Validate the retrieval evaluation set (stdlib only).

Checks every query in queries.json against the Markdown corpus:
  - ids are unique, kinds are valid, required fields are present
  - the source file exists under corpus/
  - the evidence phrase (whitespace collapsed) occurs exactly once in its
    source and nowhere else in the corpus, inside a single line (one
    paragraph or list item) and a single sentence (the chunker may cut
    between sentences), without Markdown markup characters
  - query and evidence lengths are within the agreed ranges
Then prints counts: files, words, an approximate chunk count, queries by kind.

Usage: python3 check.py            (exit status 1 if any check fails)
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus"
KINDS = ("paraphrase", "keyword", "mixed")
MARKUP = set("*`#|[]_<>")
STOP = set("""a an and are as at be by can did do does for from had has have how i
in is it its me my of on or our should so that the their them then there they this
to was we were what when where which who why will with you your i'm it's we're""".split())


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def approx_chunks(text, target=110):
    """Rough estimate: split at headings, pack paragraphs up to ~target words."""
    chunks, cur = 0, 0
    for block in re.split(r"\n\s*\n", text):
        words = len(block.split())
        if not words:
            continue
        if block.lstrip().startswith("#"):
            if cur:
                chunks += 1
            cur = 0
            body = "\n".join(block.splitlines()[1:])
            words = len(body.split())
            if not words:
                continue
        if cur and cur + words > target:
            chunks += 1
            cur = 0
        while words > target * 1.4:
            chunks += 1
            words -= target
        cur += words
    return chunks + (1 if cur else 0)


def main():
    files = sorted(CORPUS.rglob("*.md"))
    raw = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}
    flat = {k: norm(v) for k, v in raw.items()}
    queries = json.loads((ROOT / "queries.json").read_text(encoding="utf-8"))

    errors, warnings = [], []
    seen = set()
    overlap = {k: [] for k in KINDS}
    for q in queries:
        qid = q.get("id", "?")
        missing = [f for f in ("id", "query", "kind", "source", "evidence") if not q.get(f)]
        if missing:
            errors.append(f"{qid}: missing fields {missing}")
            continue
        if qid in seen:
            errors.append(f"{qid}: duplicate id")
        seen.add(qid)
        if q["kind"] not in KINDS:
            errors.append(f"{qid}: invalid kind {q['kind']!r}")
        src, ev = q["source"], norm(q["evidence"])
        if src not in raw:
            errors.append(f"{qid}: source {src} does not exist")
            continue
        n_ev, n_q = len(ev.split()), len(q["query"].split())
        if not 6 <= n_ev <= 12:
            errors.append(f"{qid}: evidence has {n_ev} words (want 6-12)")
        if not 4 <= n_q <= 15:
            errors.append(f"{qid}: query has {n_q} words (want 4-15)")
        if MARKUP & set(ev):
            errors.append(f"{qid}: evidence contains Markdown markup characters")
        if re.search(r"[.!?] ", ev):
            errors.append(f"{qid}: evidence crosses a sentence boundary")
        in_src = flat[src].count(ev)
        if in_src != 1:
            errors.append(f"{qid}: evidence occurs {in_src} times in its source")
        elsewhere = [k for k, v in flat.items() if k != src and ev in v]
        if elsewhere:
            errors.append(f"{qid}: evidence also occurs in {elsewhere}")
        lines = [ln for ln in raw[src].splitlines() if ev in norm(ln)]
        if in_src == 1 and len(lines) != 1:
            errors.append(f"{qid}: evidence spans a line break")
        ci = sum(v.lower().count(ev.lower()) for v in flat.values())
        if ci > 1:
            warnings.append(f"{qid}: evidence occurs {ci} times ignoring case")
        if lines:
            para = set(re.findall(r"\w+", lines[0].lower()))
            toks = [t for t in re.findall(r"\w+", q["query"].lower()) if t not in STOP]
            if toks and q["kind"] in overlap:
                overlap[q["kind"]].append(sum(t in para for t in toks) / len(toks))

    words = sum(len(t.split()) for t in raw.values())
    chunks = sum(approx_chunks(t) for t in raw.values())
    kinds = Counter(q.get("kind") for q in queries)
    print(f"files:   {len(files)}")
    print(f"words:   {words}")
    print(f"chunks:  ~{chunks} (rough estimate at ~110 words, split at headings)")
    print(f"queries: {len(queries)} " + ", ".join(f"{k}={kinds.get(k, 0)}" for k in KINDS))
    for k in KINDS:
        if overlap[k]:
            mean = sum(overlap[k]) / len(overlap[k])
            print(f"  {k:<10} mean share of query content words found in the evidence line: {mean:.2f}")
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"FAILED ({len(errors)} errors)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
