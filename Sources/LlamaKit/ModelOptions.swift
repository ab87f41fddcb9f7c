public import Foundation

/// How a model file is loaded.
public struct ModelLoadOptions: Sendable, Hashable {
  /// Layers to offload to a GPU; -1 offloads all that the backend supports, 0 keeps the model on the CPU.
  public var gpuLayers: Int
  /// Map the file into memory instead of reading it.
  public var useMmap: Bool
  /// Lock the weights in RAM so they are never swapped out.
  public var useMlock: Bool
  /// A chat template to use instead of the model's own: a template name llama.cpp knows (`chatml`,
  /// `llama3`, `gemma`, …) or a template text.
  public var chatTemplateOverride: String?
  /// `host:port` of rpc-server workers to spread the layers over (trusted networks only: the protocol has no
  /// authentication). Empty keeps the model on this machine.
  public var rpcServers: [String]
  /// Load only the vocabulary and the metadata (a few MB): enough to format chats and count tokens, not to
  /// generate.
  public var vocabularyOnly: Bool

  /// Creates load options.
  public init(
    gpuLayers: Int = -1, useMmap: Bool = true, useMlock: Bool = false, chatTemplateOverride: String? = nil,
    rpcServers: [String] = [], vocabularyOnly: Bool = false
  ) {
    self.rpcServers = rpcServers
    self.vocabularyOnly = vocabularyOnly
    self.gpuLayers = gpuLayers
    self.useMmap = useMmap
    self.useMlock = useMlock
    self.chatTemplateOverride = chatTemplateOverride
  }
}

/// How an inference context for a model is set up.
public struct ContextOptions: Sendable, Hashable {
  /// Context window of each slot in tokens; `nil` picks the smaller of 4096 and the model's trained context.
  public var contextSize: Int?
  /// Generations that run at once, each in a sequence slot of its own with ``contextSize`` tokens.
  public var slots: Int
  /// Most tokens evaluated in one decode call.
  public var batchSize: Int
  /// CPU threads; `nil` uses one per available core.
  public var threads: Int?
  /// Evaluate a tiny batch once after creation so the first real request does not pay for set-up.
  public var warmUp: Bool
  /// Where evaluated prompt prefixes are kept between runs (see ``HearthCore/GenerationOptions/reusablePrefix``);
  /// `nil` keeps none.
  public var prefixCacheDirectory: URL?

  /// Creates context options.
  public init(
    contextSize: Int? = nil, slots: Int = 1, batchSize: Int = 512, threads: Int? = nil, warmUp: Bool = true,
    prefixCacheDirectory: URL? = nil
  ) {
    self.slots = slots
    self.prefixCacheDirectory = prefixCacheDirectory
    self.contextSize = contextSize
    self.batchSize = batchSize
    self.threads = threads
    self.warmUp = warmUp
  }

  /// The most slots a context may have.
  public static let maxSlots = 64

  /// The default context window for a model trained on `trained` tokens.
  static func defaultContextSize(trained: Int) -> Int { min(4096, trained) }
}

/// A context's settings as llama.cpp reports them.
public struct AppliedContext: Sendable, Hashable {
  public var contextSize: Int
  public var batchSize: Int
  public var threads: Int
}

/// What llama.cpp reports about a loaded model.
public struct ModelMetadata: Sendable, Hashable {
  /// `general.architecture`.
  public var architecture: String
  /// `general.name`, or the file name.
  public var name: String
  /// Number of weights.
  public var parameterCount: UInt64
  /// Size of the weights in bytes.
  public var weightBytes: UInt64
  /// Size of the file in bytes.
  public var fileBytes: UInt64
  /// The context length the model was trained with.
  public var trainedContextLength: Int
  /// Width of the embedding.
  public var embeddingLength: Int
  /// Number of layers.
  public var layerCount: Int
  /// Tokens in the vocabulary.
  public var vocabularySize: Int
  /// The model's own chat template, if it has one.
  public var chatTemplate: String?
  /// Text of the beginning-of-sequence token, if any.
  public var bosToken: String?
  /// Text of the end-of-sequence token, if any.
  public var eosToken: String?
  /// Text of the end-of-turn token, if any.
  public var eotToken: String?
  /// llama.cpp's one-line description (architecture, size, quantization).
  public var summary: String
}
