#!/usr/bin/env bash
# Proves the llama.cpp and whisper.cpp builds on this CPU before anything uses them, every time set-up
# runs (a cached prefix may come from another run, or another machine sharing the home directory):
#   - llama.cpp: llama-completion (linked to the prefix's shared libraries, the ones Hearth loads) answers a
#     greedy completion with the default model, and llama-bench runs a short prompt and generation;
#   - whisper.cpp: whisper-cli transcribes the sample clip with the speech model.
# A crash (an instruction the CPU cannot run dies with SIGILL) or a wrong answer rebuilds the library with
# fewer instruction sets (scripts/cpu-features.sh) and proves again; when even the smallest set fails,
# set-up stops and names the CPU, the features tried and the log.
# A build with a GPU backend (scripts/gpu-backend.sh) is then proven on the GPU: the same completion with every
# layer offloaded, and llama-bench at -ngl 99. When that fails, set-up says why and rebuilds for the CPU alone
# (which is proven again); the stamp keeps the reason, so later runs do not retry the same GPU build.
# The outcome is written beside the stamp as .hearth-proof, which `hearth doctor` reports.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/cpu-features.sh
source "$here/cpu-features.sh"
# shellcheck source=scripts/gpu-backend.sh
source "$here/gpu-backend.sh"

logs="$HEARTH_CACHE/logs"
mkdir -p "$logs"
threads="$(($(nproc) < 4 ? $(nproc) : 4))"

# Runs a command with a time limit, its output in a log; prints why it failed, if it did.
attempt() { # log command...
  local log="$1" code
  shift
  set +e
  timeout --kill-after=10 300 "$@" >"$log" 2>&1 </dev/null
  code=$?
  set -e
  if ((code == 0)); then return 0; fi
  if ((code == 124 || code == 137)); then
    echo "timed out"
  elif ((code > 128)); then
    echo "died of signal $((code - 128)) ($(kill -l $((code - 128)) 2>/dev/null || echo '?'))"
  else
    echo "exited with status $code"
  fi
  return 1
}

# Writes the proof record: result, the features proven, the CPU, when, and what failed on the way; for
# llama.cpp also the GPU backend, why it was chosen, and its own proof's result.
record_proof() { # prefix result features detail [gpu-result]
  printf 'result=%s\nfeatures=%s\ncpu=%s\ndate=%s\ndetail=%s\n' "$2" "$3" "$(cpu_model_name)" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$4" >"$1/.hearth-proof"
  if [[ -n "${5:-}" ]]; then
    printf 'gpu_backend=%s\ngpu_reason=%s\ngpu_result=%s\n' "$(stamp_field "$1/.hearth-stamp" backend)" \
      "$(stamp_field "$1/.hearth-stamp" backend_reason)" "$5" >>"$1/.hearth-proof"
  fi
}

# The environment that makes ggml use the Vulkan device: lavapipe is CPU-type, which ggml skips unless named.
gpu_proof_env() {
  if gpu_vulkan_only_cpu_devices; then echo "GGML_VK_VISIBLE_DEVICES=0"; fi
}

# Proves the GPU backend of a llama.cpp build: a completion with every layer offloaded answers, llama.cpp says
# the layers went to the GPU (llama.cpp's own load lines, shown at verbosity 4), and llama-bench runs at -ngl 99
# (kept to a few tokens: lavapipe is slow).
prove_llama_gpu() { # prints the reason on failure
  local bin="$HEARTH_LLAMA_PREFIX/bin" model="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" log="$logs/llama-proof-gpu.log"
  local why
  # shellcheck disable=SC2046
  if ! why="$(attempt "$log" env $(gpu_proof_env) "$bin/llama-completion" -m "$model" -p "The capital of France is" \
    -n 6 --temp 0 --seed 1 -t "$threads" -c 256 -ngl 99 -no-cnv --no-display-prompt --no-warmup -lv 4)"; then
    echo "llama-completion on the GPU $why (log: $log)"
    return 1
  fi
  if ! grep -q "offloaded [1-9][0-9]*/[0-9]* layers to GPU" "$log"; then
    echo "llama-completion offloaded no layer (log: $log)"
    return 1
  fi
  if ! grep -q "Paris" "$log"; then
    echo "llama-completion on the GPU answered \"$(tr '\n' ' ' <"$log" | tail -c 200)\" instead of naming Paris"
    return 1
  fi
  # shellcheck disable=SC2046
  if ! why="$(attempt "$logs/llama-proof-gpu-bench.log" env $(gpu_proof_env) "$bin/llama-bench" -m "$model" \
    -p 16 -n 4 -r 1 -ngl 99 -t "$threads")"; then
    echo "llama-bench -ngl 99 $why (log: $logs/llama-proof-gpu-bench.log)"
    return 1
  fi
}

prove_llama() { # prints the reason on failure
  local bin="$HEARTH_LLAMA_PREFIX/bin" model="$HEARTH_MODELS_CACHE/$SMOLLM2_FILE" log="$logs/llama-proof.log"
  local why
  if [[ ! -f "$model" ]]; then
    echo "the model $model is missing (scripts/setup-models.sh fetches it)"
    return 2
  fi
  if ! why="$(attempt "$log" "$bin/llama-completion" -m "$model" -p "The capital of France is" -n 12 \
    --temp 0 --seed 1 -t "$threads" -c 256 -no-cnv --no-display-prompt --no-warmup)"; then
    echo "llama-completion $why"
    return 1
  fi
  if ! grep -q "Paris" "$log"; then
    echo "llama-completion answered \"$(tr '\n' ' ' <"$log" | tail -c 200)\" instead of naming Paris"
    return 1
  fi
  if ! why="$(attempt "$logs/llama-proof-bench.log" "$bin/llama-bench" -m "$model" -p 32 -n 8 -r 1 \
    -t "$threads")"; then
    echo "llama-bench $why"
    return 1
  fi
}

prove_whisper() {
  local log="$logs/whisper-proof.log" why
  if [[ ! -f "$HEARTH_MODELS_CACHE/$WHISPER_MODEL_FILE" ]]; then
    echo "the speech model $HEARTH_MODELS_CACHE/$WHISPER_MODEL_FILE is missing (scripts/setup-models.sh makes it)"
    return 2
  fi
  if ! why="$(attempt "$log" "$HEARTH_WHISPER_PREFIX/bin/whisper-cli" -m "$HEARTH_MODELS_CACHE/$WHISPER_MODEL_FILE" \
    -f "$HEARTH_WHISPER_PREFIX/samples/jfk.wav" -t "$threads" -nt -np)"; then
    echo "whisper-cli $why"
    return 1
  fi
  if ! grep -qi "ask not what your country" "$log"; then
    echo "whisper-cli heard \"$(tr '\n' ' ' <"$log" | tail -c 200)\" instead of the sample's words"
    return 1
  fi
}

features_not_in() { # kept features...
  local kept=" $1 " feature dropped=()
  shift
  for feature in "$@"; do
    if [[ "$kept" != *" $feature "* ]]; then dropped+=("$feature"); fi
  done
  echo "${dropped[*]}"
}

# prove NAME PREFIX PROVE-FUNCTION SETUP-SCRIPT LOG
prove() {
  local name="$1" prefix="$2" check="$3" setup="$4" log="$5" features why tried=()
  features="$(stamp_field "$prefix/.hearth-stamp" features)"
  # Why an earlier run fell back to this build, kept while the build is the same.
  local earlier=""
  if [[ "$(stamp_field "$prefix/.hearth-proof" features)" == "$features" ]]; then
    earlier="$(stamp_field "$prefix/.hearth-proof" detail)"
  fi
  while true; do
    local status=0
    why="$($check)" || status=$?
    if ((status == 0)); then
      local gpu_result=""
      if [[ "$name" == llama.cpp ]]; then
        gpu_result="not run"
        if [[ "$(stamp_field "$prefix/.hearth-stamp" backend)" == vulkan ]]; then
          local gpu_why
          if gpu_why="$(prove_llama_gpu)"; then
            gpu_result=passed
            echo "$name: proven on the GPU ($(stamp_field "$prefix/.hearth-stamp" backend_reason))"
          else
            echo "$name: the Vulkan build failed its proof on the GPU: $gpu_why" >&2
            echo "$name: rebuilding for the CPU alone (the GPU stays unused until set-up finds another backend)" >&2
            "$setup" "$features" cpu "the Vulkan build failed its proof: $gpu_why"
            continue
          fi
        fi
      fi
      record_proof "$prefix" passed "$features" "${tried[*]:+fell back after: ${tried[*]}}${tried[*]:-$earlier}" \
        "$gpu_result"
      echo "$name: proven on this CPU (${features:-no extra instruction sets})"
      return 0
    fi
    if ((status == 2)); then
      # Nothing to do with the CPU: fewer instruction sets would not help.
      echo "$name: cannot be proven: $why" >&2
      exit 1
    fi
    tried+=("[${features:-none}: $why]")
    # Kept apart, so the next attempt's log does not replace what this one said.
    cp "$log" "${log%.log}-failed-${#tried[@]}.log" 2>/dev/null || true
    echo "$name: built for ${features:-no extra instruction sets}, $why (log: ${log%.log}-failed-${#tried[@]}.log)" >&2
    local next
    # shellcheck disable=SC2086
    next="$(ggml_fallback_feature_sets $features | head -n1)"
    if [[ -z "$next" ]]; then
      record_proof "$prefix" failed "$features" "${tried[*]}"
      cat >&2 <<MSG
$name: no build runs on this CPU ($(cpu_model_name)).
  tried: ${tried[*]}
  logs: ${log%.log}-failed-*.log
  Set HEARTH_GGML_FEATURES to a smaller set of instruction sets (known: ${GGML_FEATURE_ORDER[*]}) and run
  set-up again, or report this CPU's flags (grep flags /proc/cpuinfo) with the log.
MSG
      exit 1
    fi
    echo "$name: rebuilding without $(features_not_in "$next" $features) to find a build this CPU runs" >&2
    "$setup" "$next"
    features="$(stamp_field "$prefix/.hearth-stamp" features)"
  done
}

prove llama.cpp "$HEARTH_LLAMA_PREFIX" prove_llama "$here/setup-llama.sh" "$logs/llama-proof.log"
prove whisper.cpp "$HEARTH_WHISPER_PREFIX" prove_whisper "$here/setup-whisper.sh" "$logs/whisper-proof.log"
