# Chooses the instruction sets ggml is compiled for from what this CPU reports, instead of -march=native.
# Sourced by the llama.cpp and whisper.cpp set-up scripts.
#
# Why not -march=native: a native build takes every instruction set the build host advertises, AMX
# included, and ggml's AMX matrix kernel dies with SIGILL on virtual machines that report AMX (the kernel
# grants the tile state, yet the kernel's instructions fault). It also ties a cached build to the host
# that made it. Here every feature is named: each maps to one GGML_* CMake option and to the /proc/cpuinfo
# flags it needs, the set is recorded in the cache's stamp, and a cached build is used only on a CPU that
# has every one of its features. AMX is never chosen on its own; HEARTH_GGML_FEATURES can name it (or any
# other set) and the proof after the build shows whether it runs.
# shellcheck shell=bash

# feature → the GGML_* option it turns on, and the cpuinfo flags it requires (all of them).
declare -gA GGML_FEATURE_OPTION=(
  [sse42]=GGML_SSE42 [avx]=GGML_AVX [avx2]=GGML_AVX2 [fma]=GGML_FMA [f16c]=GGML_F16C [bmi2]=GGML_BMI2
  [avx_vnni]=GGML_AVX_VNNI [avx512]=GGML_AVX512 [avx512_vbmi]=GGML_AVX512_VBMI
  [avx512_vnni]=GGML_AVX512_VNNI [avx512_bf16]=GGML_AVX512_BF16
  [amx_tile]=GGML_AMX_TILE [amx_int8]=GGML_AMX_INT8 [amx_bf16]=GGML_AMX_BF16
)
declare -gA GGML_FEATURE_FLAGS=(
  [sse42]="sse4_2" [avx]="avx" [avx2]="avx2" [fma]="fma" [f16c]="f16c" [bmi2]="bmi2"
  [avx_vnni]="avx_vnni"
  # ggml's AVX512 option compiles with -mavx512f -mavx512cd -mavx512vl -mavx512dq -mavx512bw.
  [avx512]="avx512f avx512cd avx512vl avx512dq avx512bw"
  [avx512_vbmi]="avx512vbmi avx512f" [avx512_vnni]="avx512_vnni avx512f" [avx512_bf16]="avx512_bf16 avx512f"
  [amx_tile]="amx_tile" [amx_int8]="amx_int8 amx_tile" [amx_bf16]="amx_bf16 amx_tile"
)
# In this order, so a feature set always prints the same way.
GGML_FEATURE_ORDER=(sse42 avx avx2 fma f16c bmi2 avx_vnni avx512 avx512_vbmi avx512_vnni avx512_bf16
  amx_tile amx_int8 amx_bf16)
# Chosen automatically when the CPU reports them; AMX is left out (see above).
GGML_AUTO_FEATURES=(sse42 avx avx2 fma f16c bmi2 avx_vnni avx512 avx512_vbmi avx512_vnni avx512_bf16)

# The CPU's architecture as ggml's CMake sees it: x86 builds name their features, others build natively.
cpu_arch() { uname -m; }

# The flags line of /proc/cpuinfo (x86), one flag per word.
cpu_flags() {
  if [[ -r /proc/cpuinfo ]]; then
    grep -m1 -E '^(flags|Features)[[:space:]]*:' /proc/cpuinfo | cut -d: -f2- | xargs
  fi
}

cpu_model_name() {
  if [[ -r /proc/cpuinfo ]]; then
    grep -m1 -E '^model name[[:space:]]*:' /proc/cpuinfo | cut -d: -f2- | xargs
  fi
}

# cpu_has_feature FEATURE [FLAGS]: the CPU reports every flag the feature needs.
cpu_has_feature() {
  local feature="$1" flags="${2:-$(cpu_flags)}" flag
  [[ -n "${GGML_FEATURE_FLAGS[$feature]:-}" ]] || return 1
  for flag in ${GGML_FEATURE_FLAGS[$feature]}; do
    [[ " $flags " == *" $flag "* ]] || return 1
  done
}

# The features this CPU supports among the automatic ones (or HEARTH_GGML_FEATURES when set), in order.
# On a CPU that is not x86, ggml's own native tuning is used: "native:" and a fingerprint of the CPU's flags.
ggml_features_for_cpu() {
  local flags feature chosen=()
  flags="$(cpu_flags)"
  case "$(cpu_arch)" in
    x86_64 | i?86) ;;
    *)
      echo "native:$(printf '%s' "$flags" | sha256sum | cut -c1-16)"
      return
      ;;
  esac
  if [[ -n "${HEARTH_GGML_FEATURES:-}" ]]; then
    for feature in $HEARTH_GGML_FEATURES; do
      if [[ -z "${GGML_FEATURE_OPTION[$feature]:-}" ]]; then
        echo "set-up: HEARTH_GGML_FEATURES names an unknown feature '$feature' (known: ${GGML_FEATURE_ORDER[*]})" >&2
        return 1
      fi
    done
    ggml_features_sorted $HEARTH_GGML_FEATURES
    return
  fi
  for feature in "${GGML_AUTO_FEATURES[@]}"; do
    if cpu_has_feature "$feature" "$flags"; then chosen+=("$feature"); fi
  done
  echo "${chosen[*]}"
}

# Prints the given features in canonical order, each once.
ggml_features_sorted() {
  local feature out=()
  for feature in "${GGML_FEATURE_ORDER[@]}"; do
    if [[ " $* " == *" $feature "* ]]; then out+=("$feature"); fi
  done
  echo "${out[*]}"
}

# ggml_features_missing FEATURES...: the ones this CPU lacks (empty when it has them all).
ggml_features_missing() {
  local flags feature missing=()
  flags="$(cpu_flags)"
  for feature in "$@"; do
    if [[ "$feature" == native:* ]]; then
      [[ "$feature" == "$(ggml_features_for_cpu)" ]] || missing+=("$feature")
      continue
    fi
    if ! cpu_has_feature "$feature" "$flags"; then missing+=("$feature"); fi
  done
  echo "${missing[*]}"
}

# ggml_cmake_options FEATURES...: every GGML_* instruction-set option set explicitly, native tuning off.
ggml_cmake_options() {
  local feature state
  if [[ "${1:-}" == native:* ]]; then
    echo "-DGGML_NATIVE=ON"
    return
  fi
  echo "-DGGML_NATIVE=OFF"
  for feature in "${GGML_FEATURE_ORDER[@]}"; do
    state=OFF
    if [[ " $* " == *" $feature "* ]]; then state=ON; fi
    echo "-D${GGML_FEATURE_OPTION[$feature]}=$state"
  done
}

# Weaker feature sets to fall back to when a build's proof fails, strongest first: without AMX (when it was
# asked for), then without the AVX-512 family and AVX-VNNI as well, then plain AVX2, then SSE 4.2 alone.
# Only sets that are smaller than the one given are printed, one per line.
ggml_fallback_feature_sets() {
  local current=" $* " set feature kept
  if [[ "$current" == *" amx_"* ]]; then
    kept=()
    for feature in "$@"; do
      if [[ "$feature" != amx_* ]]; then kept+=("$feature"); fi
    done
    echo "${kept[*]}"
  fi
  for set in "sse42 avx avx2 fma f16c bmi2" "sse42 avx avx2 fma f16c" "sse42"; do
    kept=()
    for feature in $set; do
      if [[ "$current" == *" $feature "* ]]; then kept+=("$feature"); fi
    done
    if [[ "${#kept[@]}" -lt "$#" ]]; then echo "${kept[*]}"; fi
  done
}

# A prefix's stamp is three lines: the pinned source and recipe, "wanted=" the features chosen for the CPU
# that built it, and "features=" the ones it was built with (fewer when the proof made it fall back).
write_stamp() { # stamp version-line wanted-features built-features
  printf '%s\nwanted=%s\nfeatures=%s\n' "$2" "$3" "$4" >"$1"
}

stamp_field() { # stamp name
  sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n1
}

# stamp_is_current STAMP VERSION-LINE WANTED LABEL: the prefix was built from this source and recipe, for a
# CPU with the same features, and uses none this CPU lacks. Says why when it is not (and there is a stamp).
stamp_is_current() {
  local stamp="$1" version="$2" wanted="$3" label="$4" built missing
  [[ -f "$stamp" ]] || return 1
  if [[ "$(head -n1 "$stamp")" != "$version" ]]; then
    echo "$label: the cached build is of another version or recipe; rebuilding"
    return 1
  fi
  built="$(stamp_field "$stamp" features)"
  # shellcheck disable=SC2086
  missing="$(ggml_features_missing $built)"
  if [[ -n "$missing" ]]; then
    echo "$label: the cached build uses $missing, which this CPU ($(cpu_model_name)) lacks; rebuilding"
    return 1
  fi
  if [[ "$(stamp_field "$stamp" wanted)" != "$wanted" ]]; then
    echo "$label: the cached build was made for other CPU features ($(stamp_field "$stamp" wanted)); rebuilding for $wanted"
    return 1
  fi
}
