/// What a GGUF header says about a model, as read by ``GGUFReader``.
public struct GGUFFile: Sendable {
  /// Where the file is.
  public var path: String
  /// GGUF format version.
  public var version: UInt32
  /// File size in bytes.
  public var fileSize: UInt64
  /// Metadata in file order.
  public var metadataEntries: [(String, GGUFValue)]
  /// Tensor descriptions in file order.
  public var tensors: [GGUFTensorInfo]
  /// Alignment of tensor data.
  public var alignment: UInt64
  /// Where tensor data starts.
  public var dataOffset: UInt64

  /// The metadata value for `key`.
  public subscript(key: String) -> GGUFValue? {
    metadataEntries.first(where: { $0.0 == key })?.1
  }

  /// `general.architecture`, e.g. `llama` or `gemma3`.
  public var architecture: String? { self["general.architecture"]?.string }
  /// `general.name`.
  public var name: String? { self["general.name"]?.string }
  /// The context length the model was trained with.
  public var contextLength: Int64? { architecture.flatMap { self["\($0).context_length"]?.integer } }
  /// Width of the embedding.
  public var embeddingLength: Int64? { architecture.flatMap { self["\($0).embedding_length"]?.integer } }
  /// Number of transformer blocks.
  public var blockCount: Int64? { architecture.flatMap { self["\($0).block_count"]?.integer } }
  /// Number of attention heads.
  public var headCount: Int64? { architecture.flatMap { self["\($0).attention.head_count"]?.integer } }
  /// The chat template the model ships with, if any.
  public var chatTemplate: String? { self["tokenizer.chat_template"]?.string }
  /// Tokenizer family (`gpt2`, `llama`, …).
  public var tokenizerModel: String? { self["tokenizer.ggml.model"]?.string }
  /// Number of tokens in the vocabulary.
  public var vocabularySize: UInt64? {
    if case .array(let tokens) = self["tokenizer.ggml.tokens"] { return tokens.count }
    return nil
  }
  /// Total number of weights.
  public var parameterCount: UInt64 { tensors.reduce(0) { $0 &+ $1.elementCount } }
  /// Bytes of tensor data.
  public var tensorBytes: UInt64 { tensors.reduce(0) { $0 &+ $1.byteCount } }
  /// `general.file_type` rendered as llama.cpp names it, e.g. `Q4_1`.
  public var fileTypeName: String? {
    guard let code = self["general.file_type"]?.integer else { return nil }
    return Self.fileTypes[code] ?? "type \(code)"
  }

  private static let fileTypes: [Int64: String] = [
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K", 11: "Q3_K_S",
    12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K",
    19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS", 23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL",
    26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16",
    36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4",
  ]
}
