import Foundation
public import HearthCore
public import HearthMemory
import HearthStore
import LlamaKit

/// A GGUF embedding model on this machine, loaded the first time it is needed and then kept resident beside
/// the chat model; its decodes take turns with the chat model's on the one executor.
public actor LocalEmbedder: TextEmbedder {
  /// The model file.
  public nonisolated let path: String
  private let threads: Int?
  private let gpuLayers: GPULayers
  private var loading: Task<LlamaEmbedder, any Error>?

  /// An embedder for the model at `path`; nothing is loaded yet. Its layers go to a GPU as `gpuLayers` says,
  /// as the chat model's do.
  public init(path: String, threads: Int? = nil, gpuLayers: GPULayers = .auto) {
    self.path = path
    self.threads = threads
    self.gpuLayers = gpuLayers
  }

  /// Whether the model file exists.
  public nonisolated var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

  private func loaded() async throws -> LlamaEmbedder {
    if let loading { return try await loading.value }
    let path = path
    let threads = threads
    let gpuLayers = GPUOffload.layers(gpuLayers, path: path, contextTokens: nil)
    let task = Task { () async throws -> LlamaEmbedder in
      let model = try await LlamaModel.load(path: path, options: ModelLoadOptions(gpuLayers: gpuLayers))
      return try await LlamaEmbedder.create(model: model, threads: threads)
    }
    loading = task
    do {
      return try await task.value
    } catch {
      // A failed load (a missing or damaged file) is tried again next time rather than remembered.
      loading = nil
      throw error
    }
  }

  /// Whether the model is in memory (a search now pays no load).
  public var isLoaded: Bool {
    get async {
      guard let loading else { return false }
      do {
        _ = try await loading.value
        return true
      } catch {
        return false
      }
    }
  }

  public func prepare() async throws -> EmbedderInfo {
    guard isInstalled else { throw EmbeddingError.modelMissing(path: path) }
    let embedder = try await loaded()
    return EmbedderInfo(
      identity: MemoryIndexIdentity(model: self.name, dimension: embedder.dimension),
      maxTokens: embedder.maxTokensPerText,
      countTokens: { text in (try? embedder.tokenCount(text)) ?? text.utf8.count })
  }

  public func embed(_ texts: [String]) async throws -> [[Float]] {
    try await loaded().embed(texts)
  }

  /// Embeds texts and counts the tokens read, for the embeddings API.
  /// - Throws: ``EmbeddingError`` for a missing model, an empty text or one beyond the model's window.
  public func embedCounting(_ texts: [String]) async throws -> (vectors: [[Float]], tokens: Int) {
    guard isInstalled else { throw EmbeddingError.modelMissing(path: path) }
    let embedder = try await loaded()
    var tokenized: [[Int32]] = []
    for (index, text) in texts.enumerated() {
      guard !text.isEmpty else { throw EmbeddingError.emptyInput(index: index) }
      let tokens = try embedder.tokenized(text)
      guard tokens.count <= embedder.maxTokensPerText else {
        throw EmbeddingError.inputTooLong(index: index, tokens: tokens.count, limit: embedder.maxTokensPerText)
      }
      tokenized.append(tokens)
    }
    // Tokenized once: the counts and the vectors come from the same tokens.
    return (try await embedder.embed(tokenized: tokenized), tokenized.reduce(0) { $0 + $1.count })
  }

  /// The model's file name, as the API names it.
  public nonisolated var name: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// Why texts could not be embedded.
public enum EmbeddingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The embedding model is not installed.
  case modelMissing(path: String)
  /// An input is empty.
  case emptyInput(index: Int)
  /// An input is longer than the model reads.
  case inputTooLong(index: Int, tokens: Int, limit: Int)

  public var description: String {
    switch self {
    case .modelMissing(let path):
      "the embedding model is not installed at \(path); run `make build` or set HEARTH_EMBEDDING_MODEL"
    case .emptyInput(let index): "input \(index) is empty"
    case .inputTooLong(let index, let tokens, let limit):
      "input \(index) is too large: \(tokens) tokens, but the embedding model reads at most \(limit); split it"
    }
  }
}
