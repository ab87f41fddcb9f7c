#!/usr/bin/env bash
# Builds llama.cpp (library + the tools used for side-by-side benchmarks) from the source vendored
# by a pinned PyPI sdist, into a cache prefix outside the clone, for the instruction sets this CPU reports
# (scripts/cpu-features.sh: named one by one, AMX left out). A prefix is reused only when its stamp records
# the same pinned version and recipe, was chosen for the same CPU features, and uses none this CPU lacks; a
# half-built prefix never carries a stamp. A GPU backend is built beside the CPU one where the machine has one
# (scripts/gpu-backend.sh says which, and why; the stamp keeps both). scripts/prove-native.sh proves the result
# before it is used.
#   scripts/setup-llama.sh                          build for this CPU and GPU (or reuse the cache)
#   scripts/setup-llama.sh FEATURES                 build for exactly these features (the proof's fall-back)
#   scripts/setup-llama.sh FEATURES cpu REASON      the same without a GPU backend (the GPU proof's fall-back)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"
# shellcheck source=scripts/cpu-features.sh
source "$here/cpu-features.sh"
# shellcheck source=scripts/gpu-backend.sh
source "$here/gpu-backend.sh"

prefix="$HEARTH_LLAMA_PREFIX"
stamp="$prefix/.hearth-stamp"
# Bump `recipe` whenever this script changes what it builds, so older prefixes are rebuilt.
want="llama-cpp-python=$LLAMA_CPP_PYTHON_VERSION sha256=$LLAMA_CPP_PYTHON_SHA256 recipe=5"
wanted_features="$(ggml_features_for_cpu)"
forced_features="${1:-}"
# Captured first, so that a HEARTH_GPU_BACKEND that cannot be had stops set-up here.
detected="$(gpu_backend_detect)"
IFS=$'\t' read -r wanted_backend backend_reason <<<"$detected"
backend="${2:-$wanted_backend}"
if [[ -n "${2:-}" ]]; then backend_reason="${3:-asked for $backend}"; fi

if [[ -z "$forced_features" ]] && stamp_is_current "$stamp" "$want" "$wanted_features" "llama.cpp"; then
  # A build whose GPU backend failed its proof stays a CPU build while the machine offers the same backend.
  if [[ "$(stamp_field "$stamp" backend_wanted)" == "$wanted_backend" ]]; then
    echo "llama.cpp: cached at $prefix ($(stamp_field "$stamp" features); backend $(stamp_field "$stamp" backend): $(stamp_field "$stamp" backend_reason))"
    exit 0
  fi
  echo "llama.cpp: the cached build's GPU backend is $(stamp_field "$stamp" backend), this machine's is $wanted_backend ($backend_reason); rebuilding"
fi
build_features="${forced_features:-$wanted_features}"

need_cmd() { command -v "$1" >/dev/null 2>&1; }
if ! need_cmd cmake || ! need_cmd pkg-config || ! need_cmd patchelf || ! need_cmd patch; then
  echo "llama.cpp: installing cmake, pkg-config, patchelf and patch from Debian"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  run_logged "llama.cpp: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "llama.cpp: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake pkg-config patchelf patch
fi

work="$HEARTH_CACHE/llama-build"
logs="$HEARTH_CACHE/logs"
# The build logs are made anew; the proof logs stay, since a failed proof is why a rebuild may be running.
rm -rf "$work" "$prefix" "$logs"/llama-configure.log "$logs"/llama-build.log "$logs"/llama-install.log
mkdir -p "$work" "$logs"

echo "llama.cpp: fetching llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist"
pip download --quiet --no-deps --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$work/dl"
sdist="$work/dl/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
got="$(sha256sum "$sdist" | cut -d' ' -f1)"
if [[ "$got" != "$LLAMA_CPP_PYTHON_SHA256" ]]; then
  echo "llama.cpp: sdist checksum mismatch (got $got, want $LLAMA_CPP_PYTHON_SHA256)" >&2
  exit 1
fi
tar -xzf "$sdist" -C "$work"
src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"

gpu_options=()
if [[ "$backend" == vulkan ]]; then
  # Debian 12's Vulkan headers (1.3.239) predate VK_EXT_layer_settings, which the pinned ggml uses only to
  # turn on the validation layer's best-practice checks; the patch creates the instance without it there.
  patch -s -p1 -d "$src" <"$here/patches/llama-vulkan-old-headers.patch"
  gpu_options=(-DGGML_VULKAN=ON)
fi

jobs="$(nproc)"
common=(
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON
  $(ggml_cmake_options $build_features)
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_RPATH='$ORIGIN'
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_MTMD=ON
  -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DGGML_CCACHE=OFF -DLLAMA_CURL=OFF
  # The RPC backend lets a model spread its layers over ggml-rpc-server workers (hearth --rpc HOST:PORT,...).
  -DGGML_RPC=ON
  "${gpu_options[@]}"
)

echo "llama.cpp: building the library for ${build_features:-no extra instruction sets}, GPU backend $backend ($backend_reason; $jobs jobs; full log in $logs/llama-build.log)"
run_logged "llama.cpp: configuring" "$logs/llama-configure.log" cmake -S "$src" -B "$work/build" "${common[@]}" \
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF
run_logged "llama.cpp: compiling the library" "$logs/llama-build.log" cmake --build "$work/build" -j "$jobs"
run_logged "llama.cpp: installing" "$logs/llama-install.log" cmake --install "$work/build"

echo "llama.cpp: building llama-bench, llama-completion, llama-cli, llama-server, llama-embedding, ggml-rpc-server"
run_logged "llama.cpp: configuring the tools" "$logs/llama-configure.log" cmake -S "$src" -B "$work/build" \
  "${common[@]}" -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_EXAMPLES=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_TOOLS_INSTALL=OFF
run_logged "llama.cpp: compiling the tools" "$logs/llama-build.log" cmake --build "$work/build" -j "$jobs" \
  --target llama-bench llama-completion llama-cli llama-server llama-embedding ggml-rpc-server
mkdir -p "$prefix/bin"
for tool in llama-bench llama-completion llama-cli llama-server llama-embedding ggml-rpc-server; do
  cp "$work/build/bin/$tool" "$prefix/bin/"
  patchelf --set-rpath '$ORIGIN/../lib' "$prefix/bin/$tool"
done
# The tools also link helper libraries (common code, per-tool implementations) that the library-only
# install does not contain.
for lib in "$work"/build/bin/lib*.so*; do
  name="$(basename "$lib")"
  if [[ ! -e "$prefix/lib/$name" ]]; then
    cp -P "$lib" "$prefix/lib/"
    if [[ ! -L "$prefix/lib/$name" ]]; then patchelf --set-rpath '$ORIGIN' "$prefix/lib/$name"; fi
  fi
done
for tool in "$prefix"/bin/*; do
  if ldd "$tool" | grep -q "not found"; then
    echo "llama.cpp: $(basename "$tool") has unresolved libraries:" >&2
    ldd "$tool" | grep "not found" >&2
    exit 1
  fi
done
# Keep the vendored gguf-py for model conversion.
rm -rf "$prefix/gguf-py"
cp -r "$src/gguf-py" "$prefix/gguf-py"

rm -rf "$work"
write_stamp "$stamp" "$want" "$wanted_features" "$build_features"
printf 'backend_wanted=%s\nbackend=%s\nbackend_reason=%s\n' "$wanted_backend" "$backend" "$backend_reason" >>"$stamp"
echo "llama.cpp: installed to $prefix"
