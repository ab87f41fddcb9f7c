import HearthCore
public import HearthStore

/// What the memory needs from an embedding model: the seam between retrieval and whatever computes the
/// vectors (llama.cpp on this machine, a test double in unit tests).
public protocol TextEmbedder: Sendable {
  /// Loads the model if needed and describes it.
  func prepare() async throws -> EmbedderInfo
  /// L2-normalised vectors for `texts`, in order; each text fits ``EmbedderInfo/maxTokens``.
  func embed(_ texts: [String]) async throws -> [[Float]]
}

/// A loaded embedding model, as the memory sees it.
public struct EmbedderInfo: Sendable {
  /// The model's name and vector length: vectors of different models never mix in one index.
  public var identity: MemoryIndexIdentity
  /// Most tokens one text may have, special tokens included.
  public var maxTokens: Int
  /// Tokens the model reads for a text, special tokens included.
  public var countTokens: @Sendable (String) -> Int

  /// Describes a model.
  public init(identity: MemoryIndexIdentity, maxTokens: Int, countTokens: @escaping @Sendable (String) -> Int) {
    self.identity = identity
    self.maxTokens = maxTokens
    self.countTokens = countTokens
  }
}
