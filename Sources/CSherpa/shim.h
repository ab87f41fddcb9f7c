#ifndef HEARTH_CSHERPA_SHIM_H
#define HEARTH_CSHERPA_SHIM_H

// sherpa-onnx's C API: offline text to speech with a VITS (Piper) voice, fed phonemes Hearth makes itself.
#include <sherpa-onnx/c-api/c-api.h>

#endif
