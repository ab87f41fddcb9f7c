#ifndef HEARTH_CTESSERACT_SHIM_H
#define HEARTH_CTESSERACT_SHIM_H

// Tesseract's C API and the Leptonica image reading it takes its images from.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

#endif
