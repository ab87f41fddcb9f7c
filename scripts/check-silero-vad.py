#!/usr/bin/env python3
"""Check a converted Silero VAD file against the original ONNX model on real audio.

Runs whisper.cpp's VAD (through ctypes on libhearth-whisper.so) and silero_vad.onnx (through onnxruntime) over
the same 16 kHz samples and compares their speech probabilities window by window (512 samples, 32 ms). Needs
numpy and onnxruntime, which the project does not otherwise use: run it from a throwaway virtual environment.

    check-silero-vad.py --onnx silero_vad.onnx|silero_vad-6.2.3-py3-none-any.whl [--speak TEXT] [CLIP.wav ...]

The ONNX model is run two ways. The silero_vad package feeds it each window behind the last 64 samples of the
previous one (zeros before the first) and carries the LSTM state along. whisper.cpp carries the state too but
no context: it pads each window's front with its own samples mirrored. Fed that same mirrored context, the
ONNX model does exactly the computation whisper.cpp does, so the two may differ only by whisper.cpp's float16
weights and float arithmetic: that difference, which says whether the conversion is right, must stay within
--tolerance. The package's way is reported beside it, to show how much whisper.cpp's framing itself changes.

--speak makes a clip with espeak-ng: the sentence with a second of silence before and after, at 16 kHz.
Exits non-zero when, on any clip, a probability differs by more than the tolerance or a speech/no-speech
decision at 0.5 differs on a window the ONNX model does not put within the tolerance of 0.5.
"""

from __future__ import annotations

import argparse
import ctypes
import io
import os
import subprocess
import sys
import tempfile
import wave
import zipfile
from pathlib import Path
from typing import NoReturn

import numpy as np

SAMPLE_RATE = 16_000
WINDOW = 512
CONTEXT = 64
THRESHOLD = 0.5

# whisper.cpp keeps the STFT basis and the convolution kernels in float16 and its convolutions round their
# input to float16 too. On the clips below the float16 weights alone (in float64 arithmetic) move a
# probability by up to 4e-3, and whisper.cpp's arithmetic by as much again; probabilities nearest 0.5 move
# most, where the sigmoid is steepest. A wrong layout or wrong weights move them by tenths (a file made from
# the safetensors weights, say, is 0.5 off), so 2e-2 leaves room for the first and none for the second.
DEFAULT_TOLERANCE = 2e-2

# As scripts/pins.sh places them.
CACHE_HOME = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
HEARTH_CACHE = Path(os.environ.get("HEARTH_CACHE") or CACHE_HOME / "hearth")
WHISPER_PREFIX = Path(os.environ.get("HEARTH_WHISPER_PREFIX") or HEARTH_CACHE / "whisper.cpp-1.8.5")
MODELS = Path(os.environ.get("HEARTH_MODELS_CACHE") or HEARTH_CACHE / "models")


def fail(message: str) -> NoReturn:
    sys.exit(f"check-silero-vad: {message}")


# whisper.h's structs, passed by value.
class VadContextParams(ctypes.Structure):
    _fields_ = [("n_threads", ctypes.c_int), ("use_gpu", ctypes.c_bool), ("gpu_device", ctypes.c_int)]


class VadParams(ctypes.Structure):
    _fields_ = [
        ("threshold", ctypes.c_float),
        ("min_speech_duration_ms", ctypes.c_int),
        ("min_silence_duration_ms", ctypes.c_int),
        ("max_speech_duration_s", ctypes.c_float),
        ("speech_pad_ms", ctypes.c_int),
        ("samples_overlap", ctypes.c_float),
    ]


# ggml_log_callback; whisper.cpp logs every call's progress at GGML_LOG_LEVEL_INFO (2).
LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
GGML_LOG_LEVEL_WARN = 3
GGML_LOG_LEVEL_ERROR = 4


@LOG_CALLBACK
def log_warnings(level: int, text: bytes, _user_data: int) -> None:
    if level in (GGML_LOG_LEVEL_WARN, GGML_LOG_LEVEL_ERROR):
        sys.stderr.write(text.decode("utf-8", "replace"))


class WhisperVad:
    """whisper.cpp's VAD through its C API."""

    def __init__(self, library: Path, model: Path) -> None:
        lib = ctypes.CDLL(str(library))
        lib.whisper_log_set.argtypes = [LOG_CALLBACK, ctypes.c_void_p]
        lib.whisper_log_set(log_warnings, None)
        floats = ctypes.POINTER(ctypes.c_float)
        lib.whisper_vad_default_context_params.restype = VadContextParams
        lib.whisper_vad_default_params.restype = VadParams
        lib.whisper_vad_init_from_file_with_params.argtypes = [ctypes.c_char_p, VadContextParams]
        lib.whisper_vad_init_from_file_with_params.restype = ctypes.c_void_p
        lib.whisper_vad_detect_speech.argtypes = [ctypes.c_void_p, floats, ctypes.c_int]
        lib.whisper_vad_detect_speech.restype = ctypes.c_bool
        lib.whisper_vad_n_probs.argtypes = [ctypes.c_void_p]
        lib.whisper_vad_n_probs.restype = ctypes.c_int
        lib.whisper_vad_probs.argtypes = [ctypes.c_void_p]
        lib.whisper_vad_probs.restype = floats
        lib.whisper_vad_segments_from_probs.argtypes = [ctypes.c_void_p, VadParams]
        lib.whisper_vad_segments_from_probs.restype = ctypes.c_void_p
        lib.whisper_vad_segments_n_segments.argtypes = [ctypes.c_void_p]
        lib.whisper_vad_segments_n_segments.restype = ctypes.c_int
        for edge in ("t0", "t1"):
            function = getattr(lib, f"whisper_vad_segments_get_segment_{edge}")
            function.argtypes = [ctypes.c_void_p, ctypes.c_int]
            function.restype = ctypes.c_float
        lib.whisper_vad_free_segments.argtypes = [ctypes.c_void_p]
        lib.whisper_vad_free.argtypes = [ctypes.c_void_p]
        self.lib = lib

        params = lib.whisper_vad_default_context_params()
        # The default of 4 threads spin-waits on each of the many tiny per-window graphs: on a busy 2-core
        # machine that is thousands of times slower than one thread, which already runs far faster than real time.
        params.n_threads = 1
        self.context = lib.whisper_vad_init_from_file_with_params(str(model).encode(), params)
        if not self.context:
            fail(f"whisper.cpp could not load {model}")

    def probabilities(self, samples: np.ndarray) -> np.ndarray:
        samples = np.ascontiguousarray(samples, dtype=np.float32)
        pointer = samples.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        if not self.lib.whisper_vad_detect_speech(self.context, pointer, len(samples)):
            fail("whisper_vad_detect_speech failed")
        count = self.lib.whisper_vad_n_probs(self.context)
        return np.ctypeslib.as_array(self.lib.whisper_vad_probs(self.context), shape=(count,)).copy()

    def segments(self) -> list[tuple[float, float]]:
        """Speech segments in seconds from the last probabilities, with whisper.cpp's default parameters."""
        segments = self.lib.whisper_vad_segments_from_probs(self.context, self.lib.whisper_vad_default_params())
        if not segments:
            fail("whisper_vad_segments_from_probs failed")
        # The API gives centiseconds.
        spans = [
            (
                self.lib.whisper_vad_segments_get_segment_t0(segments, i) / 100,
                self.lib.whisper_vad_segments_get_segment_t1(segments, i) / 100,
            )
            for i in range(self.lib.whisper_vad_segments_n_segments(segments))
        ]
        self.lib.whisper_vad_free_segments(segments)
        return spans

    def close(self) -> None:
        self.lib.whisper_vad_free(self.context)


class OnnxVad:
    """The original model through onnxruntime, one 512-sample window at a time."""

    def __init__(self, source: Path) -> None:
        import onnxruntime

        if source.suffix == ".whl":
            with zipfile.ZipFile(source) as wheel:
                model = wheel.read("silero_vad/data/silero_vad.onnx")
        else:
            model = source.read_bytes()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])

    def probabilities(self, samples: np.ndarray, mirrored_context: bool) -> np.ndarray:
        padded = np.zeros(-(-len(samples) // WINDOW) * WINDOW, dtype=np.float32)
        padded[: len(samples)] = samples
        state = np.zeros((2, 1, 128), dtype=np.float32)
        context = np.zeros(CONTEXT, dtype=np.float32)
        out = []
        for start in range(0, len(padded), WINDOW):
            window = padded[start : start + WINDOW]
            if mirrored_context:
                context = window[CONTEXT:0:-1]
            inputs = {
                "input": np.concatenate([context, window])[None, :],
                "state": state,
                "sr": np.array(SAMPLE_RATE, dtype=np.int64),
            }
            probability, state = self.session.run(None, inputs)
            out.append(float(probability[0, 0]))
            context = window[-CONTEXT:]
        return np.array(out, dtype=np.float32)


def resample(samples: np.ndarray, rate: int) -> np.ndarray:
    """Band-limited resampling to 16 kHz by truncating or zero-extending the spectrum."""
    if rate == SAMPLE_RATE:
        return samples
    count = round(len(samples) * SAMPLE_RATE / rate)
    spectrum = np.fft.rfft(samples.astype(np.float64))
    bins = count // 2 + 1
    resized = np.zeros(bins, dtype=complex)
    resized[: min(bins, len(spectrum))] = spectrum[:bins]
    return (np.fft.irfft(resized, count) * count / len(samples)).astype(np.float32)


def read_wav(data: bytes | Path) -> np.ndarray:
    """16-bit PCM as mono float32 samples at 16 kHz."""
    with wave.open(io.BytesIO(data) if isinstance(data, bytes) else str(data)) as clip:
        if clip.getsampwidth() != 2:
            fail("only 16-bit PCM WAV files are read")
        frames = np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2")
        channels, rate = clip.getnchannels(), clip.getframerate()
    samples = frames.reshape(-1, channels).mean(axis=1).astype(np.float32) / 32768.0
    return resample(samples, rate)


def spoken(text: str) -> np.ndarray:
    """The sentence as espeak-ng says it, between one second of silence on each side."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "speech.wav"
        try:
            subprocess.run(["espeak-ng", "-w", str(path), text], check=True)
        except FileNotFoundError:
            fail("--speak needs espeak-ng")
        speech = read_wav(path.read_bytes())
    silence = np.zeros(SAMPLE_RATE, dtype=np.float32)
    return np.concatenate([silence, speech, silence])


def compare(name: str, samples: np.ndarray, ggml: WhisperVad, onnx: OnnxVad, tolerance: float) -> bool:
    ours = ggml.probabilities(samples)
    same_framing = onnx.probabilities(samples, mirrored_context=True)
    package_framing = onnx.probabilities(samples, mirrored_context=False)
    if len(ours) != len(same_framing):
        fail(f"{name}: whisper.cpp gave {len(ours)} probabilities for {len(same_framing)} windows")

    def agreement(reference: np.ndarray) -> tuple[float, int]:
        differ = int(np.sum((ours >= THRESHOLD) != (reference >= THRESHOLD)))
        return float(np.max(np.abs(ours - reference))), differ

    diff, differ = agreement(same_framing)
    # Within the tolerance of the threshold a decision may rightly go either way.
    clear = np.abs(same_framing - THRESHOLD) > tolerance
    wrong = int(np.sum(clear & ((ours >= THRESHOLD) != (same_framing >= THRESHOLD))))
    package_diff, package_differ = agreement(package_framing)
    windows = len(ours)
    speech = int(np.sum(ours >= THRESHOLD))
    print(f"{name}: {len(samples) / SAMPLE_RATE:.2f} s, {windows} windows, {speech} speech at {THRESHOLD}")
    print(
        f"  vs ONNX, same framing:     max |diff| {diff:.2e}, mean {np.mean(np.abs(ours - same_framing)):.1e}, "
        f"decisions agree {windows - differ}/{windows}"
    )
    print(
        f"  vs ONNX, package framing:  max |diff| {package_diff:.2e}, "
        f"mean {np.mean(np.abs(ours - package_framing)):.1e}, decisions agree {windows - package_differ}/{windows}"
    )
    spans = ", ".join(f"{start:.2f}-{end:.2f}" for start, end in ggml.segments())
    print(f"  whisper.cpp segments (default parameters), s: {spans or 'none'}")
    ok = diff <= tolerance and wrong == 0
    if not ok:
        print(f"  FAIL: more than {tolerance:g} apart, or a decision differs away from the threshold", file=sys.stderr)
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clips", nargs="*", type=Path, help="16-bit PCM WAV files (resampled to 16 kHz)")
    parser.add_argument("--onnx", type=Path, required=True, help="silero_vad.onnx, or the silero-vad wheel")
    parser.add_argument("--model", type=Path, default=MODELS / "ggml-silero-v6.2.3.bin")
    parser.add_argument("--lib", type=Path, default=WHISPER_PREFIX / "lib" / "libhearth-whisper.so")
    parser.add_argument("--speak", metavar="TEXT", action="append", default=[], help="a sentence for espeak-ng")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    args = parser.parse_args()
    if not args.clips and not args.speak:
        parser.error("give a clip or --speak")
    for path in (args.onnx, args.model, args.lib, *args.clips):
        if not path.is_file():
            fail(f"{path} does not exist")

    ggml = WhisperVad(args.lib, args.model)
    onnx = OnnxVad(args.onnx)
    clips = [(str(path), read_wav(path)) for path in args.clips]
    clips += [(f"espeak-ng {text!r}", spoken(text)) for text in args.speak]
    results = [compare(name, samples, ggml, onnx, args.tolerance) for name, samples in clips]
    ggml.close()
    if not all(results):
        sys.exit(1)
    print(f"check-silero-vad: {len(results)} clips agree within {args.tolerance:g}")


if __name__ == "__main__":
    main()
