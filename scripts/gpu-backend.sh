# Which GPU backend set-up builds llama.cpp with, and why. Sourced by setup-llama.sh and prove-native.sh.
#
# Vulkan is chosen when its loader and headers (libvulkan-dev), its shader compiler (glslc) and SPIR-V headers
# are installed and `vulkaninfo` lists at least one device: a GPU with a Vulkan driver (AMD, Intel, NVIDIA), or
# Mesa's lavapipe, a CPU Vulkan driver that set-up installs on this project's machines so that the offload path
# builds and runs in `make test`. ggml skips CPU-type devices unless GGML_VK_VISIBLE_DEVICES names one, so a
# build for lavapipe runs on the CPU backend alone everywhere else. The Vulkan backend sits beside the CPU
# backend in the same library: with no usable device, or with no layers offloaded, nothing changes.
#
# CUDA is not built by this set-up (no machine with an NVIDIA GPU was lent to prove it); an NVIDIA driver
# brings its own Vulkan driver, which the Vulkan build uses.
#
# HEARTH_GPU_BACKEND=auto (default) | vulkan (fail when Vulkan cannot be built) | cpu (never build a GPU backend)
# shellcheck shell=bash

# Prints "BACKEND<TAB>REASON"; exits when HEARTH_GPU_BACKEND asks for what cannot be had.
gpu_backend_detect() {
  local asked="${HEARTH_GPU_BACKEND:-auto}" missing=() devices
  case "$asked" in
    cpu)
      printf 'cpu\tHEARTH_GPU_BACKEND=cpu\n'
      return 0
      ;;
    auto | vulkan) ;;
    *)
      echo "HEARTH_GPU_BACKEND=$asked is not one of auto, vulkan, cpu" >&2
      exit 1
      ;;
  esac
  pkg-config --exists vulkan 2>/dev/null || missing+=("the Vulkan loader (libvulkan-dev)")
  command -v glslc >/dev/null 2>&1 || missing+=("glslc")
  [[ -f /usr/share/cmake/SPIRV-Headers/SPIRV-HeadersConfig.cmake ]] || missing+=("spirv-headers")
  command -v vulkaninfo >/dev/null 2>&1 || missing+=("vulkaninfo (vulkan-tools)")
  if ((${#missing[@]} > 0)); then
    if [[ "$asked" == vulkan ]]; then
      echo "HEARTH_GPU_BACKEND=vulkan, but ${missing[*]} missing" >&2
      exit 1
    fi
    printf 'cpu\tno Vulkan build tools (%s)\n' "${missing[*]}"
    return 0
  fi
  devices="$(gpu_vulkan_devices)"
  if [[ -z "$devices" ]]; then
    if [[ "$asked" == vulkan ]]; then
      echo "HEARTH_GPU_BACKEND=vulkan, but vulkaninfo lists no device" >&2
      exit 1
    fi
    printf 'cpu\tno Vulkan device (vulkaninfo lists none)\n'
    return 0
  fi
  local note=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    note="; an NVIDIA driver is present: its Vulkan driver is used (this set-up builds no CUDA backend)"
  fi
  printf 'vulkan\tVulkan device: %s%s\n' "$devices" "$note"
}

# The Vulkan devices, "name (type)" joined by "; " (names hold commas); empty when there are none.
gpu_vulkan_devices() {
  vulkaninfo --summary 2>/dev/null | awk -F' = ' '
    /deviceType/ { type = $2; sub(/^PHYSICAL_DEVICE_TYPE_/, "", type) }
    /deviceName/ { names[n++] = $2 " (" tolower(type) ")" }
    END { for (i = 0; i < n; i++) printf "%s%s", (i ? "; " : ""), names[i] }'
}

# True when every Vulkan device is CPU-type (lavapipe): ggml then needs GGML_VK_VISIBLE_DEVICES to use one.
gpu_vulkan_only_cpu_devices() {
  local devices
  devices="$(gpu_vulkan_devices)"
  [[ -n "$devices" && "$(echo "$devices" | tr ';' '\n' | grep -vc '(cpu)$')" == 0 ]]
}
