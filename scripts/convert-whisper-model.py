#!/usr/bin/env python3
"""Convert a Whisper model saved in CTranslate2's format into whisper.cpp's GGML model file.

Input: a CTranslate2 Whisper folder (model.bin with binary format 6 and a WhisperSpec, vocabulary.txt,
config.json), such as tiny.en. Output: the file whisper.cpp's loader reads (`ggml-tiny.en.bin` and the like):

    convert-whisper-model.py MODEL_DIR OUT.bin

The file is written to OUT.bin.partial and renamed when complete. Only numpy is needed.

whisper.cpp's format, in order: the magic 0x67676d6c; eleven int32 hyper-parameters (n_vocab, n_audio_ctx,
n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels,
ftype = 1 for float16); the mel filter bank (n_mels, n_fft, then float32 rows); the vocabulary (a count, then
length-prefixed raw bytes per token); then each tensor: n_dims, name length, type (0 float32, 1 float16),
the dimensions innermost first, the name, the data. Matrices and convolution kernels are float16; vectors,
both position tables and the convolution biases (as [n, 1]) are float32, as whisper.cpp's loader expects.

CTranslate2 stores Whisper with two differences that are undone here: self-attention's query, key and value
are one fused matrix (and cross-attention's key and value another), split row-wise; and the key projection,
which has no bias in Whisper, carries a zero bias in the fused one, dropped after checking it is zero.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
from pathlib import Path
from typing import BinaryIO, NoReturn

import numpy as np

GGML_MAGIC = 0x67676D6C
SAMPLE_RATE = 16_000
N_FFT = 400

# CTranslate2's data type ids (ctranslate2/specs/model_spec.py).
CT2_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16, 5: np.float64}


def fail(message: str) -> NoReturn:
    sys.exit(f"convert-whisper: {message}")


class Reader:
    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        data = self.stream.read(size)
        if len(data) != size:
            fail("model.bin ends early: the file is truncated")
        return struct.unpack("<" + fmt, data)[0]

    def string(self) -> str:
        length = self.take("H")
        raw = self.stream.read(length)
        if len(raw) != length or not raw.endswith(b"\0"):
            fail("model.bin has a malformed name")
        return raw[:-1].decode("utf-8")


def read_ct2(path: Path) -> dict[str, np.ndarray]:
    """Every variable of a CTranslate2 model file, by name, aliases resolved."""
    with path.open("rb") as stream:
        reader = Reader(stream)
        version = reader.take("I")
        if version != 6:
            fail(f"model.bin has binary format {version}; this converter reads format 6")
        spec = reader.string()
        if spec != "WhisperSpec":
            fail(f"model.bin holds a {spec}, not a WhisperSpec")
        reader.take("I")  # the spec's revision
        variables: dict[str, np.ndarray] = {}
        for _ in range(reader.take("I")):
            name = reader.string()
            shape = [reader.take("I") for _ in range(reader.take("B"))]
            dtype_id = reader.take("B")
            if dtype_id not in CT2_DTYPES:
                fail(f"variable {name} has an unknown data type {dtype_id}")
            size = reader.take("I")
            raw = stream.read(size)
            if len(raw) != size:
                fail(f"model.bin ends inside {name}: the file is truncated")
            array = np.frombuffer(raw, dtype=CT2_DTYPES[dtype_id])
            if array.size != int(np.prod(shape)):
                fail(f"variable {name} holds {array.size} values for shape {shape}")
            variables[name] = array.reshape(shape)
        for _ in range(reader.take("I")):
            alias, target = reader.string(), reader.string()
            variables[alias] = variables[target]
        if stream.read(1):
            fail("model.bin has bytes after its last entry")
    return variables


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible map from bytes to printable characters, which the vocabulary is written in."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    codes = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codes.append(256 + extra)
            extra += 1
    return {byte: chr(code) for byte, code in zip(printable, codes)}


def vocabulary_bytes(path: Path) -> list[bytes]:
    """The text tokens (up to and including <|endoftext|>) as raw bytes; whisper.cpp names the specials itself."""
    decode = {char: byte for byte, char in bytes_to_unicode().items()}
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        end = lines.index("<|endoftext|>")
    except ValueError:
        fail("vocabulary.txt has no <|endoftext|>")
    tokens = []
    for line in lines[:end]:
        try:
            tokens.append(bytes(decode[char] for char in line))
        except KeyError:
            fail(f"vocabulary.txt has a token outside GPT-2's byte alphabet: {line!r}")
    tokens.append(b"<|endoftext|>")
    return tokens


def hz_to_mel(hz: np.ndarray) -> np.ndarray:
    """The Slaney mel scale: linear below 1 kHz, logarithmic above."""
    hz = np.asarray(hz, dtype=np.float64)
    linear = hz / (200.0 / 3)
    log_part = 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
    return np.where(hz >= 1000.0, log_part, linear)


def mel_to_hz(mel: np.ndarray) -> np.ndarray:
    mel = np.asarray(mel, dtype=np.float64)
    linear = mel * (200.0 / 3)
    log_part = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0))
    return np.where(mel >= 15.0, log_part, linear)


def mel_filters(n_mels: int) -> np.ndarray:
    """Triangular Slaney-normalised filters over the FFT bins, as Whisper computes its log-mel input."""
    bins = np.linspace(0, SAMPLE_RATE / 2, 1 + N_FFT // 2)
    edges = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(SAMPLE_RATE / 2), n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - bins[None, :]
    filters = np.zeros((n_mels, len(bins)))
    for i in range(n_mels):
        rising = -ramps[i] / widths[i]
        falling = ramps[i + 2] / widths[i + 1]
        filters[i] = np.maximum(0, np.minimum(rising, falling))
    filters *= (2.0 / (edges[2 : n_mels + 2] - edges[:n_mels]))[:, None]
    return filters.astype(np.float32)


def whisper_tensors(ct2: dict[str, np.ndarray], layers: tuple[int, int], state: int) -> list[tuple[str, np.ndarray]]:
    """whisper.cpp's tensors, named as its loader expects, in its order."""
    out: list[tuple[str, np.ndarray]] = []

    def take(name: str) -> np.ndarray:
        if name not in ct2:
            fail(f"model.bin has no variable {name}")
        return ct2[name]

    def norm(target: str, source: str) -> None:
        out.append((f"{target}.weight", take(f"{source}/gamma")))
        out.append((f"{target}.bias", take(f"{source}/beta")))

    def linear(target: str, source: str, bias: bool = True) -> None:
        out.append((f"{target}.weight", take(f"{source}/weight")))
        if bias:
            out.append((f"{target}.bias", take(f"{source}/bias")))

    def fused(target: str, source: str, parts: list[str]) -> None:
        weight, bias = take(f"{source}/weight"), take(f"{source}/bias")
        if weight.shape[0] != state * len(parts) or bias.shape != (state * len(parts),):
            fail(f"{source} is not {len(parts)} fused {state}-wide projections")
        for index, part in enumerate(parts):
            rows = slice(index * state, (index + 1) * state)
            out.append((f"{target}.{part}.weight", weight[rows]))
            if part == "key":
                if np.any(bias[rows] != 0):
                    fail(f"{source} has a non-zero key bias, which whisper.cpp's format cannot hold")
            else:
                out.append((f"{target}.{part}.bias", bias[rows]))

    def mlp(target: str, source: str) -> None:
        linear(f"{target}.mlp.0", f"{source}/ffn/linear_0")
        linear(f"{target}.mlp.2", f"{source}/ffn/linear_1")
        norm(f"{target}.mlp_ln", f"{source}/ffn/layer_norm")

    linear("encoder.conv1", "encoder/conv1")
    linear("encoder.conv2", "encoder/conv2")
    out.append(("encoder.positional_embedding", take("encoder/position_encodings/encodings")))
    for n in range(layers[0]):
        block, source = f"encoder.blocks.{n}", f"encoder/layer_{n}"
        # Whisper's order within a block: attention (q, k, v, out), its norm, then the MLP.
        fused(f"{block}.attn", f"{source}/self_attention/linear_0", ["query", "key", "value"])
        linear(f"{block}.attn.out", f"{source}/self_attention/linear_1")
        norm(f"{block}.attn_ln", f"{source}/self_attention/layer_norm")
        mlp(block, source)
    norm("encoder.ln_post", "encoder/layer_norm")

    out.append(("decoder.positional_embedding", take("decoder/position_encodings/encodings")))
    out.append(("decoder.token_embedding.weight", take("decoder/embeddings/weight")))
    for n in range(layers[1]):
        block, source = f"decoder.blocks.{n}", f"decoder/layer_{n}"
        fused(f"{block}.attn", f"{source}/self_attention/linear_0", ["query", "key", "value"])
        linear(f"{block}.attn.out", f"{source}/self_attention/linear_1")
        norm(f"{block}.attn_ln", f"{source}/self_attention/layer_norm")
        linear(f"{block}.cross_attn.query", f"{source}/attention/linear_0")
        # Cross-attention fuses only key and value.
        kv_weight, kv_bias = take(f"{source}/attention/linear_1/weight"), take(f"{source}/attention/linear_1/bias")
        if kv_weight.shape[0] != 2 * state:
            fail(f"{source}/attention/linear_1 is not two fused projections")
        if np.any(kv_bias[:state] != 0):
            fail(f"{source}/attention/linear_1 has a non-zero key bias")
        out.append((f"{block}.cross_attn.key.weight", kv_weight[:state]))
        out.append((f"{block}.cross_attn.value.weight", kv_weight[state:]))
        out.append((f"{block}.cross_attn.value.bias", kv_bias[state:]))
        linear(f"{block}.cross_attn.out", f"{source}/attention/linear_2")
        norm(f"{block}.cross_attn_ln", f"{source}/attention/layer_norm")
        mlp(block, source)
    norm("decoder.ln", "decoder/layer_norm")
    return out


def layer_count(ct2: dict[str, np.ndarray], prefix: str) -> int:
    count = 0
    while f"{prefix}/layer_{count}/ffn/linear_0/weight" in ct2:
        count += 1
    if count == 0:
        fail(f"model.bin has no {prefix} layers")
    return count


FLOAT32_MATRICES = {
    "encoder.conv1.bias",
    "encoder.conv2.bias",
    "encoder.positional_embedding",
    "decoder.positional_embedding",
}


def write_tensor(out: BinaryIO, name: str, data: np.ndarray) -> None:
    if name in ("encoder.conv1.bias", "encoder.conv2.bias"):
        data = data.reshape(data.shape[0], 1)
    as_float32 = data.ndim < 2 or name in FLOAT32_MATRICES
    data = np.ascontiguousarray(data, dtype=np.float32 if as_float32 else np.float16)
    encoded = name.encode("utf-8")
    out.write(struct.pack("<iii", data.ndim, len(encoded), 0 if as_float32 else 1))
    for dim in reversed(data.shape):
        out.write(struct.pack("<i", dim))
    out.write(encoded)
    out.write(data.tobytes())


def convert(folder: Path, target: Path) -> None:
    ct2 = read_ct2(folder / "model.bin")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    tokens = vocabulary_bytes(folder / "vocabulary.txt")
    n_vocab = ct2["decoder/embeddings/weight"].shape[0]
    text_ctx, text_state = ct2["decoder/position_encodings/encodings"].shape
    audio_ctx, audio_state = ct2["encoder/position_encodings/encodings"].shape
    n_mels = ct2["encoder/conv1/weight"].shape[1]
    layers = (layer_count(ct2, "encoder"), layer_count(ct2, "decoder"))
    heads = (int(ct2["encoder/num_heads"]), int(ct2["decoder/num_heads"]))
    if audio_state != text_state:
        fail("encoder and decoder widths differ, which Whisper never does")
    if config.get("suppress_ids") is None and config.get("lang_ids") is None:
        fail("config.json is not a Whisper model's configuration")
    tensors = whisper_tensors(ct2, layers, text_state)

    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as out:
        hparams = [
            n_vocab,
            audio_ctx,
            audio_state,
            heads[0],
            layers[0],
            text_ctx,
            text_state,
            heads[1],
            layers[1],
            n_mels,
            1,
        ]
        out.write(struct.pack("<i", GGML_MAGIC))
        out.write(struct.pack("<11i", *hparams))
        filters = mel_filters(n_mels)
        out.write(struct.pack("<ii", *filters.shape))
        out.write(filters.tobytes())
        out.write(struct.pack("<i", len(tokens)))
        for token in tokens:
            out.write(struct.pack("<i", len(token)))
            out.write(token)
        for name, data in tensors:
            write_tensor(out, name, data)
        out.flush()
        os.fsync(out.fileno())
    partial.rename(target)
    print(f"convert-whisper: {len(tensors)} tensors, {len(tokens)} tokens, n_vocab {n_vocab} -> {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    for required in ("model.bin", "vocabulary.txt", "config.json"):
        if not (args.model_dir / required).is_file():
            fail(f"{args.model_dir} has no {required}")
    convert(args.model_dir, args.output)


if __name__ == "__main__":
    main()
