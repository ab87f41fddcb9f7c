import Foundation
import HearthCore
import LlamaKit

/// What loading a model with a context of a given size adds to the process's resident memory, from its GGUF
/// header, before anything is loaded: the weights (mapped from the file, all touched by the first decode), the
/// KV cache (f16 keys and values for every layer and every cell: Hearth keeps sliding-window layers whole, as
/// llama.cpp does by default, so a conversation's cached prefix can always be reused), and the rest: the
/// logits, llama.cpp's vocabulary tables, one batch's activations and the runtime itself.
///
/// The last two constants were measured (`hearth bench load`) on the bundled models: 224 bytes per vocabulary
/// entry and 18 MiB of runtime.
public struct MemoryEstimate: Sendable, Hashable, Encodable {
  public var contextSize: Int
  public var weights: UInt64
  public var kvCache: UInt64
  public var outputs: UInt64
  public var compute: UInt64
  /// The sum: the resident memory the load will add.
  public var total: UInt64 { weights + kvCache + outputs + compute }

  enum CodingKeys: String, CodingKey {
    case contextSize = "context_size"
    case weights, outputs, compute, total
    case kvCache = "kv_cache"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(contextSize, forKey: .contextSize)
    try container.encode(weights, forKey: .weights)
    try container.encode(kvCache, forKey: .kvCache)
    try container.encode(outputs, forKey: .outputs)
    try container.encode(compute, forKey: .compute)
    try container.encode(total, forKey: .total)
  }
}

/// The shape of a model that decides its memory, read from its header.
public struct ModelShape: Sendable, Hashable {
  var tensorBytes: UInt64
  var layers: Int
  var embedding: Int
  var feedForward: Int
  var heads: Int
  var keyWidth: Int
  var valueWidth: Int
  var vocabulary: Int
  /// The context length the model was trained with.
  public var trainedContext: Int?
  var architecture: String

  static let batch = 512

  /// Reads the shape of the model at `path`.
  public init(path: String) throws {
    let file = try GGUFReader.read(path: path)
    let arch = file.architecture ?? ""
    func integer(_ key: String) -> Int? { file["\(arch).\(key)"]?.integer.map(Int.init) }
    tensorBytes = file.tensorBytes
    layers = integer("block_count") ?? 0
    embedding = integer("embedding_length") ?? 0
    feedForward = integer("feed_forward_length") ?? 4 * embedding
    heads = max(1, integer("attention.head_count") ?? 1)
    let kvHeads = integer("attention.head_count_kv") ?? heads
    keyWidth = (integer("attention.key_length") ?? embedding / heads) * kvHeads
    valueWidth = (integer("attention.value_length") ?? embedding / heads) * kvHeads
    vocabulary = Int(file.vocabularySize ?? 0)
    trainedContext = integer("context_length")
    architecture = arch
  }

  /// The estimate for a context of `contextSize` tokens.
  public func estimate(contextSize: Int) -> MemoryEstimate {
    let batch = min(Self.batch, contextSize)
    let kv = UInt64(layers) * UInt64(contextSize) * UInt64(keyWidth + valueWidth) * 2
    let logits = UInt64(vocabulary) * 4
    let vocabularyTables = UInt64(vocabulary) * Self.bytesPerVocabularyEntry
    // One batch's activations: the residual stream, attention and feed-forward widths, in f32.
    let activations = UInt64(batch) * UInt64(4 * embedding + 2 * feedForward + keyWidth + valueWidth) * 4
    return MemoryEstimate(
      contextSize: contextSize, weights: tensorBytes, kvCache: kv, outputs: logits + vocabularyTables,
      compute: activations + Self.runtimeBytes)
  }

  /// The largest context (a multiple of 256, at least 256) whose estimate fits in `bytes`, if any does.
  public func largestContext(fitting bytes: UInt64, upTo limit: Int) -> Int? {
    var best: Int?
    var size = 256
    while size <= limit {
      guard estimate(contextSize: size).total <= bytes else { break }
      best = size
      size += 256
    }
    return best
  }

  static let bytesPerVocabularyEntry: UInt64 = 224
  static let runtimeBytes: UInt64 = 18 << 20
}

extension ModelShape {
  /// The context a load uses when none is asked for (as LlamaKit picks it).
  public var defaultContext: Int {
    min(4096, trainedContext ?? 4096)
  }
}

/// The memory a model may take: what the system has available, capped by the user's `HEARTH_MEMORY_LIMIT`.
public struct MemoryBudget: Sendable, Hashable, Encodable {
  public var bytes: UInt64
  /// Where the figure came from (`MemAvailable`, `cgroup limit`, `HEARTH_MEMORY_LIMIT`, …).
  public var source: String

  /// The budget now, from the system and `environment`.
  /// - Throws: ``InvalidParameterError`` for a `HEARTH_MEMORY_LIMIT` that is not a size.
  public static func current(environment: [String: String]) throws -> MemoryBudget {
    let system = SystemMemory.available()
    guard let text = environment["HEARTH_MEMORY_LIMIT"], !text.isEmpty else {
      return MemoryBudget(bytes: system.bytes, source: system.source)
    }
    guard let limit = parseSize(text) else {
      throw InvalidParameterError(
        name: "HEARTH_MEMORY_LIMIT", value: text, expected: "a size such as 512MiB, 2GiB or a number of bytes")
    }
    return limit < system.bytes
      ? MemoryBudget(bytes: limit, source: "HEARTH_MEMORY_LIMIT")
      : MemoryBudget(bytes: system.bytes, source: system.source)
  }

  /// `1234`, `512MiB`, `2GiB`, `300MB`, `1.5G`…
  static func parseSize(_ text: String) -> UInt64? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let units: [(String, Double)] = [
      ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9),
      ("K", 1024), ("M", 1_048_576), ("G", 1_073_741_824), ("B", 1),
    ]
    for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
      guard let number = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
        number > 0, number.isFinite
      else { return nil }
      return UInt64(number * factor)
    }
    return UInt64(trimmed).flatMap { $0 > 0 ? $0 : nil }
  }
}

/// A model that would not fit in the memory it may take.
public struct ModelTooLargeError: Error, Sendable, Hashable, CustomStringConvertible {
  public var model: String
  public var estimate: MemoryEstimate
  public var budget: MemoryBudget
  /// The largest context that would fit, when any does.
  public var largestContext: Int?

  public var description: String {
    func mib(_ bytes: UInt64) -> String { String(format: "%.0f MiB", Double(bytes) / 1_048_576) }
    let advice =
      largestContext.map { "; a context of \($0) tokens would fit (--context \($0))" }
      ?? "; no context size fits: free memory or choose a smaller model"
    return "\(model) with a context of \(estimate.contextSize) tokens needs about \(mib(estimate.total)) "
      + "(weights \(mib(estimate.weights)), KV cache \(mib(estimate.kvCache)), "
      + "buffers \(mib(estimate.outputs + estimate.compute))), but only \(mib(budget.bytes)) is available "
      + "(\(budget.source))\(advice)"
  }
}
