#!/usr/bin/env python3
"""Counts Hearth's tests by the layer they run on, read from the test sources.

  scripts/test-layers.py [--list]

Layers, from the cheapest:
  pure        no model, no server, no process of its own (a SQLite file or an in-memory database counts as pure)
  in-process  the HTTP router or the engine in this process, on a scripted model or none
  real model  a real GGUF or Whisper model loaded in this process
  live        a real socket or another process: `hearth serve` on a port, a spawned `hearth`, llama-server,
              nginx, ggml-rpc-server workers, or the official OpenAI Python client
  browser     headless Chromium driving the web app

Each Swift `@Test` is classified by its own body, and by the helpers of its file when its body names none of the
markers (a suite that loads one model for all its tests). A test that both loads a model and starts a server
counts as live. Python test methods are counted from Tests/web.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LIVE = re.compile(
    r"LiveServer\.with\b|runService|\.live\b|NginxServer|LlamaServer|RPCWorker|CommandRunner|runHearth|hearth\(|"
    r"URLSession|HTTPClient|\.run\(\[|ProcessRunner|spawn|Process\(\)"
)
REAL_MODEL = re.compile(
    r"TestModels\.(smolLM2|gemma3|miniLM|whisperTinyEn)|LocalModel\.load|LlamaModel\.load|LocalEmbedder\(|"
    r"SpeechRecognizer\(|sharedModel|LiveServer\.routed\b|\.model\.value|engine\(\)|withEngine|openEngine|Self\.model\b"
)
IN_PROCESS = re.compile(r"LiveServer\.inProcess|\.router\b|ScriptedChatModel|Engine\.open|HearthApplication|buildApplication|app\.test")
# Helpers whose layer depends on which of their calls a test makes (named in the patterns above).
SPECIFIC = {"LiveServer"}
ORDER = ["pure", "in-process", "real model", "live"]


def classify(text: str) -> str | None:
    if LIVE.search(text):
        return "live"
    if REAL_MODEL.search(text):
        return "real model"
    if IN_PROCESS.search(text):
        return "in-process"
    return None


def helper_markers() -> tuple[re.Pattern, re.Pattern]:
    """Test helpers (types in any test file) that load a model or reach a socket or another process count as
    markers of that layer where they are used."""
    live, model = set(), set()
    files = sorted((ROOT / "Tests").glob("*/**/*.swift"))
    for _ in range(3):
        live_extra = re.compile("|".join(sorted(live)) or "(?!)")
        model_extra = re.compile("|".join(sorted(model)) or "(?!)")
        for path in files:
            text = path.read_text(encoding="utf-8")
            if "@Test" in text and "HearthTestSupport" not in str(path):
                continue
            for name in re.findall(r"(?:struct|enum|class|actor)\s+(\w+)", text):
                if name in SPECIFIC:
                    continue
                marker = rf"\b{name}\b"
                if LIVE.search(text) or live_extra.search(text):
                    live.add(marker)
                elif REAL_MODEL.search(text) or model_extra.search(text):
                    model.add(marker)
    return re.compile("|".join(sorted(live)) or "(?!)"), re.compile("|".join(sorted(model)) or "(?!)")


def swift_tests():
    global LIVE, REAL_MODEL
    live, model = helper_markers()
    LIVE = re.compile(LIVE.pattern + "|" + live.pattern)
    REAL_MODEL = re.compile(REAL_MODEL.pattern + "|" + model.pattern)
    for path in sorted((ROOT / "Tests").glob("*Tests/**/*.swift")):
        text = path.read_text(encoding="utf-8")
        pieces = re.split(r"(?=@Test\b)", text)
        helpers = pieces[0] + "".join(re.sub(r"@Test[\s\S]*?\n  }\n", "", piece, count=1) for piece in pieces[1:])
        file_layer = classify(helpers)
        for piece in pieces[1:]:
            name = re.search(r"func\s+(\w+)", piece)
            layer = classify(piece.split("\n  }\n", 1)[0]) or file_layer or "pure"
            yield path.relative_to(ROOT), name.group(1) if name else "?", layer


def python_tests():
    for path in sorted((ROOT / "Tests" / "web").glob("*_test.py")):
        text = path.read_text(encoding="utf-8")
        layer = "browser" if "webdriver" in text or "selenium" in text else "live"
        for name in re.findall(r"^\s+def (test_\w+)", text, flags=re.M):
            yield path.relative_to(ROOT), name, layer


def main() -> None:
    rows = list(swift_tests()) + list(python_tests())
    if "--list" in sys.argv:
        for path, name, layer in rows:
            print(f"{layer:11} {path}:{name}")
    counts: dict[str, int] = {}
    for _, _, layer in rows:
        counts[layer] = counts.get(layer, 0) + 1
    for layer in ORDER + ["browser"]:
        print(f"{layer:11} {counts.get(layer, 0)}")
    print(f"{'all':11} {len(rows)}")


if __name__ == "__main__":
    main()
