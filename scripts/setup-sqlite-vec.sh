#!/usr/bin/env bash
# sqlite-vec's vec0 extension, only for `hearth bench memory` to compare Hearth's vector search with: the
# pinned PyPI wheel, checked by SHA-256, unpacked into the cache. Prints the path of vec0.so.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

dest="$HEARTH_CACHE/sqlite-vec-$SQLITE_VEC_VERSION"
library="$dest/vec0.so"
if [[ -f "$library" && -f "$dest/.verified" ]]; then
  echo "$library"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --only-binary :all: --platform manylinux_2_17_x86_64 --python-version 3.11 \
  "sqlite-vec==$SQLITE_VEC_VERSION" -d "$tmp" >&2
wheel="$(ls "$tmp"/*.whl)"
got="$(sha256sum "$wheel" | cut -d' ' -f1)"
if [[ "$got" != "$SQLITE_VEC_WHEEL_SHA256" ]]; then
  echo "sqlite-vec: wheel checksum mismatch (got $got, want $SQLITE_VEC_WHEEL_SHA256)" >&2
  exit 1
fi
mkdir -p "$dest"
python3 - "$wheel" "$library" <<'PY'
import shutil, sys, zipfile
wheel, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open("sqlite_vec/vec0.so") as src, open(out + ".partial", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
mv "$library.partial" "$library"
touch "$dest/.verified"
echo "$library"
