internal import CLlama
import Foundation

/// A GGUF model loaded by llama.cpp. Immutable once loaded, so it can be shared freely; the weights are
/// released when the last reference (including every ``LlamaSession`` on it) goes away.
public final class LlamaModel: @unchecked Sendable {
  let pointer: OpaquePointer
  let vocab: OpaquePointer
  /// The file the model came from.
  public let path: String
  /// What the GGUF header says.
  public let header: GGUFFile
  /// What llama.cpp reports.
  public let metadata: ModelMetadata
  /// How the model was loaded.
  public let options: ModelLoadOptions
  /// Where its weights went: how many layers are on a GPU, and the buffers that hold them.
  public let placement: ModelPlacement

  // Loads are serialised so that the llama.cpp errors captured during one belong to it.
  private static let loadLock = NSLock()

  /// Loads a model after checking its GGUF header.
  /// - Throws: ``LlamaError`` when the file is missing, corrupt or not loadable.
  public static func load(path: String, options: ModelLoadOptions = .init()) async throws(LlamaError) -> LlamaModel {
    try await BlockingWork.run("hearth.load") { () throws(LlamaError) -> LlamaModel in
      try LlamaModel(path: path, options: options)
    }
  }

  private init(path: String, options: ModelLoadOptions) throws(LlamaError) {
    let header: GGUFFile
    do {
      header = try GGUFReader.read(path: path)
    } catch {
      throw .invalidModelFile(error)
    }
    LlamaBackend.ensureInitialised()
    var params = llama_model_default_params()
    params.n_gpu_layers = Int32(clamping: options.gpuLayers)
    params.vocab_only = options.vocabularyOnly
    params.load_mode =
      switch (options.useMmap, options.useMlock) {
      case (true, true): LLAMA_LOAD_MODE_MMAP_MLOCK
      case (true, false): LLAMA_LOAD_MODE_MMAP
      case (false, true): LLAMA_LOAD_MODE_MLOCK
      case (false, false): LLAMA_LOAD_MODE_NONE
      }
    // Once workers are known, every load names its devices (see RPCWorkers); a NULL ends the list.
    var devices: [ggml_backend_dev_t?] = []
    if !options.rpcServers.isEmpty || RPCWorkers.anyRegistered {
      devices = try RPCWorkers.devices(for: options.rpcServers).map { Optional($0) } + [nil]
    }
    Self.loadLock.lock()
    let (loaded, log) = devices.withUnsafeMutableBufferPointer { list in
      if !list.isEmpty { params.devices = list.baseAddress }
      return LlamaLogCapture.capturing { llama_model_load_from_file(path, params) }
    }
    let errors = log.errors
    Self.loadLock.unlock()
    guard let loaded else {
      let architecture = header.architecture ?? "unknown"
      if errors.contains(where: { $0.contains("unknown model architecture") }) {
        throw .unsupportedArchitecture(name: architecture, path: path)
      }
      throw .loadFailed(path: path, reason: errors.last ?? "llama.cpp gave no reason")
    }
    self.pointer = loaded
    self.vocab = llama_model_get_vocab(loaded)
    self.path = path
    self.header = header
    self.options = options
    self.metadata = Self.readMetadata(loaded, vocab: vocab, header: header, path: path)
    self.placement = ModelPlacement.read(logLines: log.placement, layerCount: metadata.layerCount)
  }

  deinit {
    let pointer = pointer
    LlamaBackend.unlessExiting { llama_model_free(pointer) }
  }

  private static func readMetadata(
    _ model: OpaquePointer, vocab: OpaquePointer, header: GGUFFile, path: String
  )
    -> ModelMetadata
  {
    var buffer = [CChar](repeating: 0, count: 256)
    let summary = buffer.withUnsafeMutableBufferPointer { raw in
      llama_model_desc(model, raw.baseAddress, raw.count) > 0 ? String(cString: raw.baseAddress!) : ""
    }
    func tokenText(_ token: llama_token) -> String? {
      token < 0 ? nil : llama_vocab_get_text(vocab, token).map { String(cString: $0) }
    }
    let fileName = path.split(separator: "/").last.map(String.init) ?? path
    return ModelMetadata(
      architecture: header.architecture ?? "unknown",
      name: header.name ?? fileName,
      parameterCount: llama_model_n_params(model),
      weightBytes: llama_model_size(model),
      fileBytes: header.fileSize,
      trainedContextLength: Int(llama_model_n_ctx_train(model)),
      embeddingLength: Int(llama_model_n_embd(model)),
      layerCount: Int(llama_model_n_layer(model)),
      vocabularySize: Int(llama_vocab_n_tokens(vocab)),
      chatTemplate: llama_model_chat_template(model, nil).map { String(cString: $0) },
      bosToken: tokenText(llama_vocab_bos(vocab)),
      eosToken: tokenText(llama_vocab_eos(vocab)),
      eotToken: tokenText(llama_vocab_eot(vocab)),
      summary: summary
    )
  }

  /// Sliding-window size of the attention, 0 when the model attends to the whole context.
  var slidingWindow: Int { Int(llama_model_n_swa(pointer)) }

  /// Whether a sequence's last tokens can be dropped from the cache alone (drafts the model did not keep);
  /// a recurrent state cannot be rolled back.
  var canDropLastTokens: Bool { !llama_model_is_recurrent(pointer) && !llama_model_is_hybrid(pointer) }

  /// Whether `token` ends a generation (end of sequence, end of turn, …).
  func isEndOfGeneration(_ token: Int32) -> Bool { llama_vocab_is_eog(vocab, token) }

  /// The beginning-of-sequence token, or a harmless first token for models that have none.
  public var warmUpToken: Int32 {
    let bos = llama_vocab_bos(vocab)
    return bos >= 0 ? bos : 0
  }
}
