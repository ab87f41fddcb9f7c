#!/usr/bin/env python3
"""Convert a BERT sentence-embedding model into a GGUF file that llama.cpp loads as an embedding model.

Input: a model folder in the Hugging Face / sentence-transformers layout (config.json, model.safetensors,
tokenizer.json, modules.json and the pooling module's config.json), such as all-MiniLM-L6-v2.
Output: GGUF with architecture "bert", WordPiece vocabulary, the pooling of the sentence-transformers
pipeline, F16 matrices and F32 vectors, norms and position/token-type tables.

    convert-embedding-model.py MODEL_DIR OUT.gguf [--llama-prefix PREFIX]

The file is written to OUT.gguf.partial and renamed when complete. Only numpy and the gguf package that
ships with llama.cpp (PREFIX/gguf-py, PREFIX defaulting to $HEARTH_LLAMA_PREFIX; it imports pyyaml) are
needed: no torch, no transformers, no tokenizers.

The layout, metadata and tensor types are those llama.cpp's own converter writes for such a model, so for
the same input the result is the same file, byte for byte (checked for all-MiniLM-L6-v2 with the llama.cpp
version the set-up builds). That includes the metadata gguf-py derives from the model card, config.json
and the folder's name, which gives general.basename and general.version: keep the model's own name.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import sys
import unicodedata
from pathlib import Path
from typing import NoReturn

import numpy as np

# llama.cpp identifies a tokenizer by the SHA-256 of the token ids it gives for this probe text
# (convert_hf_to_gguf_update.py, CHK_TXT); the invisible characters are spelled out.
PROBE_TEXT = (
    "\n \n\n \n\n\n \t \t\t \t\n  \n   \n    \n     \n"
    "🚀 (normal) 😶\u200d🌫\ufe0f (multiple emojis concatenated) ✅ 🦙🦙 "
    "3 33 333 3333 33333 333333 3333333 33333333 3.3 3..3 3...3 "
    "កាន់តែពិសេសអាច😁 ?我想在apple工作1314151天～ ------======= нещо на Български "
    "''''''```````\"\"\"\"......!!!!!!?????? I've been 'told he's there, 'RE you sure? "
    "'M not sure I'll make it, 'D you like some tea? We'Ve a'lL"
)

# Probe hashes of uncased WordPiece tokenizers and the name llama.cpp's converter records for each.
# bert-base-uncased's vocabulary (bge-small-en-v1.5, jina-embeddings-v2-base-en, all-MiniLM-L6-v2) is
# listed there twice, first as "bert-bge" and later as "jina-v2-en"; the later entry is the one it
# writes. llama.cpp reads tokenizer.ggml.pre only for BPE vocabularies, so for WordPiece the name is a
# label: what matters is recognising the tokenizer, which the hash does.
KNOWN_PRE_TOKENIZERS = {
    "0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f": "jina-v2-en",
}

SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "I64": np.int64}


def fail(message: str) -> NoReturn:
    sys.exit(f"convert: {message}")


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Tensors of a .safetensors file, memory-mapped: an 8-byte little-endian header length, a JSON
    header (name -> dtype, shape, byte range) and the raw little-endian data."""
    with open(path, "rb") as f:
        header_len = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(header_len))
    raw = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + header_len)
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in SAFETENSORS_DTYPES:
            fail(f"{name}: unsupported dtype {info['dtype']}")
        begin, end = info["data_offsets"]
        data = raw[begin:end].view(SAFETENSORS_DTYPES[info["dtype"]]).reshape(info["shape"])
        if info["dtype"] == "BF16":
            data = (data.astype(np.uint32) << 16).view(np.float32)
        tensors[name] = data
    return tensors


def probe_hash(tokenizer: dict) -> str:
    """Hash of the probe text's token ids ([CLS] ... [SEP]), tokenized as the Hugging Face tokenizers
    library does for BertNormalizer + BertPreTokenizer + WordPiece, with truncation and padding off (the
    reference converter encodes without them). Only the steps the probe exercises matter here: added
    tokens such as "[MASK]" do not occur in it, so they are not split out first."""
    norm, model = tokenizer.get("normalizer") or {}, tokenizer["model"]
    pre = tokenizer.get("pre_tokenizer") or {}
    kinds = (norm.get("type"), pre.get("type"), model.get("type"))
    if kinds != ("BertNormalizer", "BertPreTokenizer", "WordPiece"):
        fail("tokenizer.json is not a BERT WordPiece tokenizer")
    lowercase = norm.get("lowercase", True)
    strip_accents = norm.get("strip_accents")
    if strip_accents is None:
        strip_accents = lowercase

    text = []
    for ch in PROBE_TEXT:
        if norm.get("clean_text", True):
            if ch in "\x00\ufffd" or (unicodedata.category(ch)[0] == "C" and ch not in "\t\n\r"):
                continue
            if ch.isspace():
                ch = " "
        if norm.get("handle_chinese_chars", True) and is_cjk(ord(ch)):
            ch = f" {ch} "
        text.append(ch)
    normalized = "".join(text)
    if strip_accents:
        decomposed = unicodedata.normalize("NFD", normalized)
        normalized = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    if lowercase:
        # Character by character, like the Rust library: str.lower() would apply the final-sigma rule.
        normalized = "".join(c.lower() for c in normalized)

    words, word = [], ""
    for ch in normalized + " ":
        if ch.isspace() or is_punctuation(ch):
            if word:
                words.append(word)
            word = ""
            if not ch.isspace():
                words.append(ch)
        else:
            word += ch

    vocab = model["vocab"]
    prefix = model.get("continuing_subword_prefix", "##")
    unk = vocab[model["unk_token"]]
    ids = [vocab["[CLS]"]]
    for word in words:
        ids += wordpiece(word, vocab, prefix, unk, model.get("max_input_chars_per_word", 100))
    ids.append(vocab["[SEP]"])
    return hashlib.sha256(str(ids).encode()).hexdigest()


CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
              (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def is_cjk(cp: int) -> bool:
    return any(low <= cp <= high for low, high in CJK_RANGES)


def is_punctuation(ch: str) -> bool:
    # ASCII symbols such as "$" or "`" count as punctuation for BERT although Unicode calls them symbols.
    ascii_symbol = ch.isascii() and ch.isprintable() and not ch.isalnum() and ch != " "
    return ascii_symbol or unicodedata.category(ch)[0] == "P"


def wordpiece(word: str, vocab: dict[str, int], prefix: str, unk: int, max_chars: int) -> list[int]:
    """Greedy longest-match-first; a word with any piece missing from the vocabulary becomes one unknown."""
    if len(word) > max_chars:
        return [unk]
    ids, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else prefix + word[start:end]
            if piece in vocab:
                ids.append(vocab[piece])
                start = end
                break
        else:
            return [unk]
    return ids


def pooling_type(model_dir: Path, gguf):
    modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
    path = next((m["path"] for m in modules if m["type"].endswith("Pooling")), None)
    if path is None:
        fail("modules.json has no pooling module")
    pooling = json.loads((model_dir / path / "config.json").read_text(encoding="utf-8"))
    if pooling.get("pooling_mode_mean_tokens"):
        return gguf.PoolingType.MEAN
    if pooling.get("pooling_mode_cls_token"):
        return gguf.PoolingType.CLS
    if pooling.get("pooling_mode_lasttoken"):
        return gguf.PoolingType.LAST
    fail(f"unsupported pooling in {path}/config.json")


def vocabulary(tokenizer: dict, n_vocab: int, gguf) -> tuple[list[str], list[int]]:
    """Tokens in llama.cpp's WordPiece spelling: a word-initial piece starts with "▁" (U+2581), a
    continuation ("##ing") loses its prefix, and special tokens stay as they are."""
    by_id = {i: t for t, i in tokenizer["model"]["vocab"].items()}
    added = {t["id"]: t for t in tokenizer.get("added_tokens", [])}
    prefix = tokenizer["model"].get("continuing_subword_prefix", "##")
    tokens, types = [], []
    for i in range(n_vocab):
        if i in added:
            token = added[i]["content"]
            types.append(gguf.TokenType.CONTROL if added[i]["special"] else gguf.TokenType.USER_DEFINED)
        elif i in by_id:
            token = by_id[i]
            types.append(gguf.TokenType.NORMAL)
        else:
            tokens.append(f"[PAD{i}]")
            types.append(gguf.TokenType.UNUSED)
            continue
        if types[-1] != gguf.TokenType.CONTROL:
            token = token[len(prefix):] if token.startswith(prefix) else "\u2581" + token
        tokens.append(token)
    return tokens, types


def convert(model_dir: Path, out: Path, gguf) -> None:
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    absolute = config.get("position_embedding_type", "absolute") == "absolute"
    if "BertModel" not in config.get("architectures", []) or not absolute:
        fail("not a BERT model with absolute positions")
    tokenizer = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    chk = probe_hash(tokenizer)
    if chk not in KNOWN_PRE_TOKENIZERS:
        fail(f"unrecognised tokenizer (probe hash {chk})")

    n_layers = config["num_hidden_layers"]
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, n_layers)
    writer = gguf.GGUFWriter(path=None, arch=gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])

    # Sorted by name, the order llama.cpp's converter reads a safetensors file in: tensor order is part
    # of the file's bytes.
    tensors = read_safetensors(model_dir / "model.safetensors")
    for name in sorted(tensors):
        hf_name = name.removeprefix("bert.")
        # Embedding use needs neither the position-id buffer, nor the pooler, nor the pre-training heads.
        if hf_name == "embeddings.position_ids" or hf_name.startswith(("pooler.", "cls.")):
            continue
        found = names.get_type_and_name(hf_name, try_suffixes=(".weight", ".bias"))
        if found is None:
            fail(f"no GGUF name for tensor {name}")
        kind, gguf_name = found
        data = tensors[name]
        # Vectors and norms stay F32 (llama.cpp expects them so), and so do the position and token-type
        # tables, which are looked up rather than multiplied; every other matrix becomes F16.
        if (data.ndim <= 1 or gguf_name.endswith("_norm.weight") or not gguf_name.endswith(".weight")
                or kind in (gguf.MODEL_TENSOR.POS_EMBD, gguf.MODEL_TENSOR.TOKEN_TYPES)):
            qtype, data = gguf.GGMLQuantizationType.F32, data.astype(np.float32)
        else:
            qtype, data = gguf.GGMLQuantizationType.F16, data.astype(np.float16)
        writer.add_tensor(gguf_name, data, raw_dtype=qtype)

    # Authorship metadata (name, basename, size label, licence, tags...) as gguf-py derives it from the
    # model card and the folder's name; the size label needs the tensors above.
    params = writer.get_total_parameter_count()
    meta = gguf.Metadata.load(None, model_dir, None, params[0])
    if meta.name is None:
        meta.name = model_dir.name
    if meta.size_label is None and params[0] > 0:
        meta.size_label = gguf.size_label(*params)
    writer.add_type(gguf.GGUFType.MODEL)
    meta.set_gguf_meta_model(writer)

    writer.add_block_count(n_layers)
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config["layer_norm_eps"])
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    writer.add_causal_attention(False)
    writer.add_pooling_type(pooling_type(model_dir, gguf))
    writer.add_quantization_version(gguf.GGML_QUANT_VERSION)

    tokens, types = vocabulary(tokenizer, config["vocab_size"], gguf)
    writer.add_token_type_count(config.get("type_vocab_size", 1))
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre(KNOWN_PRE_TOKENIZERS[chk])
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    # The one warning SpecialVocab gives here, that GGUF has no key for the [CLS] id, is expected:
    # llama.cpp's BERT vocabulary uses its BOS token as [CLS], and that id is written.
    logging.getLogger("gguf.vocab").setLevel(logging.ERROR)
    gguf.SpecialVocab(model_dir, n_vocab=len(tokens)).add_to_gguf(writer, quiet=True)

    partial = out.with_name(out.name + ".partial")
    writer.write_header_to_file(path=partial)
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    os.replace(partial, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path, help="model folder, named as the model (all-MiniLM-L6-v2)")
    parser.add_argument("out", type=Path, help="GGUF file to write")
    parser.add_argument("--llama-prefix", default=os.environ.get("HEARTH_LLAMA_PREFIX"),
                        help="llama.cpp install prefix holding gguf-py (default: $HEARTH_LLAMA_PREFIX)")
    args = parser.parse_args()
    if not args.llama_prefix or not (Path(args.llama_prefix) / "gguf-py" / "gguf").is_dir():
        fail("gguf-py not found: pass --llama-prefix or set HEARTH_LLAMA_PREFIX to llama.cpp's prefix")
    sys.path.insert(0, str(Path(args.llama_prefix) / "gguf-py"))
    import gguf

    convert(args.model_dir.resolve(), args.out, gguf)
    print(f"convert: wrote {args.out}")


if __name__ == "__main__":
    main()
