#ifndef HEARTH_CESPEAK_SHIM_H
#define HEARTH_CESPEAK_SHIM_H

// Debian's libespeak-ng: text to phonemes for Piper voices, and the voice of last resort.
#include <espeak-ng/speak_lib.h>

#endif
