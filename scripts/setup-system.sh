#!/usr/bin/env bash
# Debian packages Hearth uses: poppler-utils (`pdftotext`) reads the text of PDF documents added to the
# memory; nginx is the real HTTP server (with byte ranges) that the model-download tests fetch from; espeak-ng
# speaks the sentences the speech-recognition tests and benchmark transcribe, and its library (libespeak-ng-dev)
# turns text into the phonemes Hearth's voice speaks, or speaks it when that voice is missing; unzip opens the
# .zip exports of other assistants' chat histories (zip makes them in the tests); Tesseract (its C library and
# English data) reads the text of images attached to messages; faketime runs the date-sensitive tests on each
# weekday and at the hours around midnight (scripts/shifted-clock-tests.sh); zlib (zlib1g-dev) compresses backups.
# For the GPU: Vulkan's loader and headers, shader compiler and SPIR-V headers build llama.cpp's Vulkan backend
# (scripts/gpu-backend.sh), and Mesa's lavapipe (a Vulkan driver that runs on the CPU) gives machines without a
# GPU a device, so that the offload path is built and proven in `make test`. HEARTH_GPU_BACKEND=cpu skips them.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/pins.sh
source "$here/pins.sh"
# shellcheck source=scripts/progress.sh
source "$here/progress.sh"

missing=()
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
pkg-config --exists espeak-ng 2>/dev/null || missing+=(libespeak-ng-dev)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
command -v zip >/dev/null 2>&1 || missing+=(zip)
pkg-config --exists tesseract lept 2>/dev/null || missing+=(libtesseract-dev)
ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1 || missing+=(tesseract-ocr-eng)
command -v faketime >/dev/null 2>&1 || missing+=(faketime)
pkg-config --exists zlib 2>/dev/null || [[ -f /usr/include/zlib.h ]] || missing+=(zlib1g-dev)
if [[ "${HEARTH_GPU_BACKEND:-auto}" != cpu ]]; then
  pkg-config --exists vulkan 2>/dev/null || missing+=(libvulkan-dev)
  command -v glslc >/dev/null 2>&1 || missing+=(glslc)
  command -v glslangValidator >/dev/null 2>&1 || missing+=(glslang-tools)
  [[ -f /usr/share/cmake/SPIRV-Headers/SPIRV-HeadersConfig.cmake ]] || missing+=(spirv-headers)
  command -v vulkaninfo >/dev/null 2>&1 || missing+=(vulkan-tools)
  ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || missing+=(mesa-vulkan-drivers)
fi

if ((${#missing[@]} > 0)); then
  echo "system: installing ${missing[*]} from Debian"
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  mkdir -p "$HEARTH_CACHE/logs"
  run_logged "system: apt-get update" "$HEARTH_CACHE/logs/apt.log" $sudo apt-get update -qq
  run_logged "system: apt-get install" "$HEARTH_CACHE/logs/apt.log" \
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
