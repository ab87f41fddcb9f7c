#!/usr/bin/env bash
# Runs llama.cpp's own server test suite, unmodified, against llama-server and against `hearth serve` on
# the same local models, and prints the pass counts per test file.
#   scripts/compat.sh [--only llama|hearth] [--strict] [TEST_FILE...]
# TEST_FILE is relative to the suite's folder (default: the files in FILES below). --strict makes the
# Hearth launcher refuse flags it cannot translate instead of dropping them (see scripts/compat/launcher.py).
#
# The suite is the one in the pinned llama-cpp-python sdist (scripts/pins.sh), unpacked into the cache; it
# runs from its own folder so that its relative paths (../../../models/templates, ../../../tools/mtmd)
# resolve. Its model presets name Hugging Face models; scripts/compat/launcher.py, which the suite starts
# as LLAMA_SERVER_BIN_PATH, swaps them for the local ones. Slow tests are deselected (-m "not slow"), as
# the suite's own tests.sh does unless SLOW_TESTS=1; they download multi-GB models. The hearth binary is
# $HEARTH_BIN, else .build/debug/hearth, copied to a temporary folder first (the tree may be rebuilt
# while the suite runs); without one only llama-server runs. With --only, the table shows the other
# server's latest results (dated) from $HEARTH_CACHE/compat-results.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"

FILES=(
  unit/test_chat_completion.py unit/test_completion.py unit/test_embedding.py unit/test_tool_call.py
  unit/test_security.py unit/test_tokenize.py
)
modes=(llama hearth)
strict=0
files=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) modes=("$2"); shift 2 ;;
    --strict) strict=1; shift ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
[[ ${#files[@]} -gt 0 ]] || files=("${FILES[@]}")

llama_server="$HEARTH_LLAMA_PREFIX/bin/llama-server"
[[ -x "$llama_server" ]] || { echo "compat: $llama_server is missing; run make setup" >&2; exit 1; }
for model in "$SMOLLM2_FILE" "$MINILM_FILE"; do
  [[ -f "$HEARTH_MODELS_CACHE/$model" ]] || { echo "compat: $model is missing; run make setup" >&2; exit 1; }
done

# The suite: tools/ and models/templates/ of the vendored llama.cpp, from the pinned sdist.
suite_root="$HEARTH_CACHE/compat-suite"
want="llama-cpp-python=$LLAMA_CPP_PYTHON_VERSION sha256=$LLAMA_CPP_PYTHON_SHA256"
if [[ ! -f "$suite_root/.stamp" || "$(cat "$suite_root/.stamp")" != "$want" ]]; then
  echo "compat: fetching the llama.cpp server tests (llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist)"
  rm -rf "$suite_root"
  mkdir -p "$suite_root/dl"
  pip download --quiet --no-deps --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" \
    -d "$suite_root/dl"
  sdist="$suite_root/dl/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
  got="$(sha256sum "$sdist" | cut -d' ' -f1)"
  if [[ "$got" != "$LLAMA_CPP_PYTHON_SHA256" ]]; then
    echo "compat: sdist checksum mismatch (got $got, want $LLAMA_CPP_PYTHON_SHA256)" >&2
    exit 1
  fi
  top="llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
  tar -xzf "$sdist" -C "$suite_root" --strip-components=2 "$top/tools" "$top/models/templates"
  rm -rf "$suite_root/dl"
  echo "$want" >"$suite_root/.stamp"
fi
suite="$suite_root/llama.cpp/tools/server/tests"

# The suite's Python packages, pinned with hashes, in a virtual environment in the cache.
requirements="$here/compat/requirements.txt"
venv="$HEARTH_CACHE/compat-venv"
want="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ ! -f "$venv/.requirements" || "$(cat "$venv/.requirements")" != "$want" ]]; then
  echo "compat: creating the suite's Python environment at $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  pip_install=("$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes)
  "${pip_install[@]}" --only-binary :all: -r <(grep '^setuptools==' "$requirements")
  "${pip_install[@]}" --only-binary :all: --no-binary wget --no-build-isolation -r "$requirements"
  "$venv/bin/pip" check --disable-pip-version-check >/dev/null
  echo "$want" >"$venv/.requirements"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$HEARTH_CACHE/compat-results"
mkdir -p "$out"

hearth_src="${HEARTH_BIN:-$root/.build/debug/hearth}"
run_modes=()
for mode in "${modes[@]}"; do
  if [[ "$mode" == hearth && ! -x "$hearth_src" ]]; then
    echo "compat: no hearth binary at $hearth_src; running llama-server only (make compat builds it)" >&2
    rm -f "$out/hearth.xml"
    continue
  fi
  run_modes+=("$mode")
done
if [[ " ${run_modes[*]} " == *" hearth "* ]]; then
  cp "$hearth_src" "$work/hearth"
fi

free_port() { "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for mode in "${run_modes[@]}"; do
  echo "compat: running the suite against $( [[ $mode == llama ]] && echo llama-server || echo 'hearth serve' )" \
    "(${#files[@]} files; full output in $out/$mode.log)"
  rm -f "$out/$mode.xml" "$out/$mode-gaps.log"
  status=0
  (
    cd "$suite"
    env PATH="$venv/bin:$PATH" \
      LLAMA_SERVER_BIN_PATH="$here/compat/launcher.py" PORT="$(free_port)" \
      HEARTH_COMPAT_MODE="$mode" HEARTH_COMPAT_LLAMA_SERVER="$llama_server" HEARTH_COMPAT_HEARTH="$work/hearth" \
      HEARTH_COMPAT_CHAT_MODEL="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" \
      HEARTH_COMPAT_EMBED_MODEL="$HEARTH_MODELS_CACHE/$MINILM_FILE" \
      HEARTH_COMPAT_GEMMA_MODEL="$HEARTH_MODELS_CACHE/$GEMMA3_FILE" \
      HEARTH_COMPAT_SCRATCH="$work/profiles" HEARTH_COMPAT_LOG="$out/$mode-gaps.log" \
      HEARTH_COMPAT_STRICT="$strict" \
      "$venv/bin/python" -m pytest -q -p no:cacheprovider -m "not slow" -rfE \
      --junit-xml="$out/$mode.xml" -o junit_family=xunit1 "${files[@]}"
  ) >"$out/$mode.log" 2>&1 || status=$?
  # 0: all passed, 1: some failed; anything else means the suite itself could not run.
  if [[ $status -gt 1 ]]; then
    tail -n 30 "$out/$mode.log" >&2
    echo "compat: pytest stopped with status $status against $mode" >&2
    exit 1
  fi
  tail -n 1 "$out/$mode.log"
done

"$venv/bin/python" "$here/compat/report.py" "$out" "${files[@]}"
