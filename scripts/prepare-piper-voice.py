#!/usr/bin/env python3
"""Prepares a Piper voice for sherpa-onnx's VITS runner.

sherpa-onnx reads what a voice is (a Piper VITS model, its sample rate, its espeak-ng voice, how many speakers)
from the ONNX file's metadata, and its symbols from a `tokens` file ("symbol id" per line). Piper publishes both
in the `.onnx.json` beside the model instead. An ONNX file is one serialized protobuf `ModelProto`, and protobuf
appends repeated fields found later in a message, so the metadata entries (field 14, `metadata_props`) are
written after the model's own bytes: no protobuf or onnx package is needed and the result is byte-for-byte
reproducible.

    prepare-piper-voice.py VOICE.onnx OUT.onnx OUT.tokens.txt
"""

import json
import sys

METADATA_PROPS = 14  # ModelProto.metadata_props: repeated StringStringEntryProto {key = 1, value = 2}


def varint(number: int) -> bytes:
    out = bytearray()
    while True:
        low = number & 0x7F
        number >>= 7
        if number:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def length_delimited(field: int, payload: bytes) -> bytes:
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def metadata_entry(key: str, value: str) -> bytes:
    entry = length_delimited(1, key.encode()) + length_delimited(2, value.encode())
    return length_delimited(METADATA_PROPS, entry)


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    voice, out_model, out_tokens = sys.argv[1:]
    with open(voice + ".json", encoding="utf-8") as file:
        config = json.load(file)
    if config.get("phoneme_type") != "espeak":
        sys.exit(f"{voice}: phoneme_type {config.get('phoneme_type')!r} is not espeak; only espeak voices are read")
    metadata = {
        "model_type": "vits",
        "comment": "piper",
        "language": config["language"]["name_english"],
        "voice": config["espeak"]["voice"],
        "has_espeak": "1",
        "n_speakers": str(config["num_speakers"]),
        "sample_rate": str(config["audio"]["sample_rate"]),
    }
    with open(voice, "rb") as file:
        model = file.read()
    with open(out_model, "wb") as file:
        file.write(model)
        for key, value in metadata.items():
            file.write(metadata_entry(key, value))
    with open(out_tokens, "w", encoding="utf-8") as file:
        for symbol, ids in config["phoneme_id_map"].items():
            file.write(f"{symbol} {ids[0]}\n")


if __name__ == "__main__":
    main()
