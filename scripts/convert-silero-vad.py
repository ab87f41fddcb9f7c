#!/usr/bin/env python3
"""Convert Silero VAD's 16 kHz model into the GGML file whisper.cpp's VAD reads.

PyPI ships no GGML file, and whisper.cpp's own converter needs torch to unpickle the TorchScript model. This one
reads the weights with numpy alone, from either file of the silero-vad wheel that holds them with plain names:

    convert-silero-vad.py silero_vad_16k_op15.onnx|silero_vad_16k.safetensors OUT.bin [--version 6.2.3]

Use the ONNX file. Its weights are those of silero_vad.onnx and silero_vad.jit, the model everyone gets from
the silero_vad package (and from whisper.cpp's converter). In silero-vad 6.2.3 the safetensors file, which only
the package's experimental tinygrad port loads, holds a different set of weights for the same architecture; it
converts just as well but does not reproduce silero_vad.onnx's output.

The file is written to OUT.bin.partial and renamed when complete, and is the same bytes on every run.

whisper.cpp's format, in order: the magic 0x67676d6c; the model type as a length-prefixed string
("silero-16k"); the version as three int32; the window (512 samples) and context (64 samples); the number of
encoder layers and, per layer, its input channels, output channels and kernel size; the LSTM's input and
hidden sizes; the final convolution's input and output channels. Then each tensor: n_dims, name length, type
(0 float32, 1 float16), the dimensions innermost first, the name, the data. whisper.cpp allocates every
tensor itself with a fixed type before reading, so the STFT basis and the convolution kernels must be
float16 and the biases and LSTM matrices float32; the final convolution's kernel [1, 128, 1] is stored as
the [128, 1] matrix it expects.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NoReturn

import numpy as np

GGML_MAGIC = 0x67676D6C
MODEL_TYPE = "silero-16k"
WINDOW = 512
CONTEXT = 64
KERNEL = 3
LSTM_SIZE = 128
ENCODER_CHANNELS = [(129, 128), (128, 64), (64, 64), (64, 128)]

# The ONNX file's names are whisper.cpp's without the leading underscore. Each entry: whisper.cpp's name, the
# safetensors name, the shape whisper.cpp allocates (PyTorch's order), stored as float16. In the order
# whisper.cpp's own converter writes them.
TENSORS: list[tuple[str, str, tuple[int, ...], bool]] = [
    ("_model.encoder.0.reparam_conv.weight", "conv1.weight", (128, 129, KERNEL), True),
    ("_model.encoder.0.reparam_conv.bias", "conv1.bias", (128,), False),
    ("_model.encoder.1.reparam_conv.weight", "conv2.weight", (64, 128, KERNEL), True),
    ("_model.encoder.1.reparam_conv.bias", "conv2.bias", (64,), False),
    ("_model.encoder.2.reparam_conv.weight", "conv3.weight", (64, 64, KERNEL), True),
    ("_model.encoder.2.reparam_conv.bias", "conv3.bias", (64,), False),
    ("_model.encoder.3.reparam_conv.weight", "conv4.weight", (128, 64, KERNEL), True),
    ("_model.encoder.3.reparam_conv.bias", "conv4.bias", (128,), False),
    ("_model.decoder.rnn.weight_ih", "lstm_cell.weight_ih", (4 * LSTM_SIZE, LSTM_SIZE), False),
    ("_model.decoder.rnn.weight_hh", "lstm_cell.weight_hh", (4 * LSTM_SIZE, LSTM_SIZE), False),
    ("_model.decoder.rnn.bias_ih", "lstm_cell.bias_ih", (4 * LSTM_SIZE,), False),
    ("_model.decoder.rnn.bias_hh", "lstm_cell.bias_hh", (4 * LSTM_SIZE,), False),
    ("_model.decoder.decoder.2.weight", "final_conv.weight", (1, LSTM_SIZE), True),
    ("_model.decoder.decoder.2.bias", "final_conv.bias", (1,), False),
    # 129 real then 129 imaginary rows of a windowed DFT over 256 samples.
    ("_model.stft.forward_basis_buffer", "stft_conv.weight", (258, 1, 256), True),
]

SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64}
ONNX_DTYPES = {1: np.float32, 10: np.float16, 11: np.float64}


def fail(message: str) -> NoReturn:
    sys.exit(f"convert-silero-vad: {message}")


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file: an 8-byte little-endian header length, a JSON header, the data."""
    raw = path.read_bytes()
    if len(raw) < 8:
        fail(f"{path} is too short to be a safetensors file")
    (header_length,) = struct.unpack("<Q", raw[:8])
    if 8 + header_length > len(raw):
        fail(f"{path} has a header longer than the file")
    try:
        header = json.loads(raw[8 : 8 + header_length])
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(f"{path} has an unreadable header: {error}")
    data = raw[8 + header_length :]
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = SAFETENSORS_DTYPES.get(info.get("dtype"))
        if dtype is None:
            fail(f"tensor {name} has data type {info.get('dtype')}, which this converter does not read")
        start, end = info["data_offsets"]
        shape = tuple(info["shape"])
        if not 0 <= start <= end <= len(data) or end - start != int(np.prod(shape)) * np.dtype(dtype).itemsize:
            fail(f"tensor {name} has data offsets that do not fit its shape {list(shape)} or the file")
        tensors[name] = np.frombuffer(data[start:end], dtype=dtype).reshape(shape)
    return tensors


def read_varint(data: bytes, position: int, path: Path) -> tuple[int, int]:
    """A protobuf varint at position, and the position after it."""
    value = shift = 0
    while True:
        if position >= len(data):
            fail(f"{path} ends inside a protobuf field: the file is truncated")
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, position


def protobuf_fields(data: bytes, path: Path) -> Iterator[tuple[int, int | bytes]]:
    """The (field number, value) pairs of one protobuf message: an int for varints, bytes otherwise."""
    position = 0
    while position < len(data):
        key, position = read_varint(data, position, path)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, position = read_varint(data, position, path)
            yield field, value
            continue
        size = {1: 8, 5: 4}.get(wire)
        if wire == 2:
            size, position = read_varint(data, position, path)
        if size is None or position + size > len(data):
            fail(f"{path} is not a protobuf file ONNX could have written")
        yield field, data[position : position + size]
        position += size


def read_onnx(path: Path) -> dict[str, np.ndarray]:
    """The initializers of an ONNX model (ModelProto.graph = 7, GraphProto.initializer = 5), by name."""
    raw = path.read_bytes()
    graphs = [value for field, value in protobuf_fields(raw, path) if field == 7]
    if len(graphs) != 1 or not isinstance(graphs[0], bytes):
        fail(f"{path} is not an ONNX model")
    tensors: dict[str, np.ndarray] = {}
    for field, message in protobuf_fields(graphs[0], path):
        if field != 5 or not isinstance(message, bytes):
            continue
        # TensorProto: dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9, data_location = 14.
        dims: list[int] = []
        dtype_id, name, raw_data, float_data, external = 0, "", None, None, False
        for key, value in protobuf_fields(message, path):
            if key == 1 and isinstance(value, int):
                dims.append(value)
            elif key == 1:  # packed
                position = 0
                while position < len(value):
                    dim, position = read_varint(value, position, path)
                    dims.append(dim)
            elif key == 2 and isinstance(value, int):
                dtype_id = value
            elif key == 4 and isinstance(value, bytes):
                float_data = value
            elif key == 8 and isinstance(value, bytes):
                name = value.decode("utf-8")
            elif key == 9 and isinstance(value, bytes):
                raw_data = value
            elif key == 14 and value == 1:
                external = True
        if external:
            fail(f"tensor {name} is stored outside {path}, which this converter does not read")
        dtype = ONNX_DTYPES.get(dtype_id)
        if dtype is None:
            fail(f"tensor {name} has ONNX data type {dtype_id}, which this converter does not read")
        if raw_data is None and not (dtype_id == 1 and float_data is not None):
            fail(f"tensor {name} keeps its values in a field this converter does not read")
        array = np.frombuffer(raw_data if raw_data is not None else float_data, dtype=np.dtype(dtype).newbyteorder("<"))
        if array.size != int(np.prod(dims)):
            fail(f"tensor {name} holds {array.size} values for shape {dims}")
        tensors[name] = array.reshape(dims)
    return tensors


def ggml_tensors(source: dict[str, np.ndarray], onnx: bool) -> list[tuple[str, np.ndarray]]:
    """whisper.cpp's tensors, named and shaped as its VAD loader expects, cast to the type it allocates."""
    names = {target: target[1:] if onnx else original for target, original, _, _ in TENSORS}
    missing = sorted(set(names.values()) - set(source))
    if missing:
        listed = ", ".join(missing)
        if len(missing) > 3:
            listed = f"{len(missing)} of the {len(TENSORS)} tensors needed, {missing[0]} first"
        fail(f"the model has no {listed}: is it Silero VAD's 16 kHz model, exported with plain names?")
    unexpected = sorted(set(source) - set(names.values()))
    if unexpected:
        fail(f"the model has tensors this converter does not know: {', '.join(unexpected)}")
    out = []
    for target, _, shape, half in TENSORS:
        name = names[target]
        data = source[name]
        if [d for d in data.shape if d != 1] != [d for d in shape if d != 1]:
            fail(f"tensor {name} has shape {list(data.shape)}; whisper.cpp needs {list(shape)}")
        out.append((target, data.reshape(shape).astype(np.float16 if half else np.float32)))
    return out


def write_tensor(out: BinaryIO, name: str, data: np.ndarray) -> None:
    data = np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("<"))
    encoded = name.encode("utf-8")
    out.write(struct.pack("<iii", data.ndim, len(encoded), 1 if data.dtype == np.float16 else 0))
    for dim in reversed(data.shape):
        out.write(struct.pack("<i", dim))
    out.write(encoded)
    out.write(data.tobytes())


def convert(source: Path, target: Path, version: tuple[int, int, int]) -> None:
    onnx = source.suffix == ".onnx"
    tensors = ggml_tensors(read_onnx(source) if onnx else read_safetensors(source), onnx)
    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as out:
        out.write(struct.pack("<I", GGML_MAGIC))
        model_type = MODEL_TYPE.encode("utf-8")
        out.write(struct.pack("<i", len(model_type)))
        out.write(model_type)
        out.write(struct.pack("<3i", *version))
        out.write(struct.pack("<2i", WINDOW, CONTEXT))
        out.write(struct.pack("<i", len(ENCODER_CHANNELS)))
        for inputs, outputs in ENCODER_CHANNELS:
            out.write(struct.pack("<3i", inputs, outputs, KERNEL))
        out.write(struct.pack("<2i", LSTM_SIZE, LSTM_SIZE))
        out.write(struct.pack("<2i", LSTM_SIZE, 1))
        for name, data in tensors:
            write_tensor(out, name, data)
        out.flush()
        os.fsync(out.fileno())
    partial.rename(target)
    print(f"convert-silero-vad: {len(tensors)} tensors, {MODEL_TYPE} v{'.'.join(map(str, version))} -> {target}")


def parse_version(text: str) -> tuple[int, int, int]:
    parts = text.split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a version like 6.2.3")
    return int(parts[0]), int(parts[1]), int(parts[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="silero_vad_16k_op15.onnx or silero_vad_16k.safetensors")
    parser.add_argument("output", type=Path)
    parser.add_argument(
        "--version",
        type=parse_version,
        default=(6, 2, 3),
        help="silero-vad version recorded in the file (whisper.cpp only logs it); default 6.2.3",
    )
    args = parser.parse_args()
    if not args.model.is_file():
        fail(f"{args.model} does not exist")
    if args.model.suffix not in (".onnx", ".safetensors"):
        fail(f"{args.model} is neither .onnx nor .safetensors")
    convert(args.model, args.output, args.version)


if __name__ == "__main__":
    main()
