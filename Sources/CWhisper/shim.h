#ifndef HEARTH_CWHISPER_SHIM_H
#define HEARTH_CWHISPER_SHIM_H

// whisper.cpp's headers live in their own folder (with the ggml headers of whisper's private ggml copy), so
// an `#include <ggml.h>` anywhere else can only ever find llama.cpp's.
#include <hearth-whisper/whisper.h>

#endif
