internal import CLlama
import Foundation
import HearthCore

/// Turns texts into sentence embeddings with a GGUF embedding model (BERT-style encoders such as
/// all-MiniLM-L6-v2, or any model llama.cpp can pool).
///
/// Several texts are evaluated in one decode, each as its own sequence, and every vector is pooled as the
/// model says (mean, CLS, last token) and L2-normalised, so a dot product is the cosine similarity. Like
/// chat generation, every decode runs on the shared ``DecodeExecutor``: a chat model and an embedding
/// model may be resident together, but their computations never overlap.
public final class LlamaEmbedder: @unchecked Sendable {
  /// The embedding model.
  public let model: LlamaModel
  /// Length of every vector.
  public let dimension: Int
  /// Most tokens one text may have (special tokens included); longer texts are refused, never cut.
  public let maxTokensPerText: Int
  /// Most tokens evaluated in one decode, across the texts packed into it.
  public let batchTokens: Int
  /// Most texts packed into one decode.
  public let maxSequences: Int
  /// CPU threads used for evaluation.
  public let threads: Int

  private let context: OpaquePointer
  private let threadpool: OpaquePointer?
  private let executor: DecodeExecutor
  // Decode-thread state.
  private var batch: llama_batch

  /// Creates an embedding context on `model`.
  /// - Parameters:
  ///   - batchTokens: the token capacity of one decode; also the context window. An encoder attends across
  ///     the whole decode (other texts masked out), so its cost grows with the square of this: 512 (a
  ///     MiniLM window) is measurably faster per text than 2048 (`hearth bench memory`).
  /// - Throws: ``LlamaError/notAnEmbeddingModel(model:)`` when the model has no pooled output;
  ///   ``LlamaError/contextCreationFailed(reason:)`` when llama.cpp refuses.
  public static func create(
    model: LlamaModel, batchTokens: Int = 512, threads: Int? = nil
  ) async throws(LlamaError) -> LlamaEmbedder {
    // Fixed: llama.cpp's encoder graph fails an internal shape check for some other sequence counts.
    let maxSequences = 64
    // Below 512 tokens llama.cpp's encoder graph does not hold together; no window is worth less anyway.
    guard batchTokens >= 512, batchTokens <= 32_768 else {
      throw .invalidParameter(.init(name: "batch tokens", value: "\(batchTokens)", expected: "512 to 32768"))
    }
    let threads = threads ?? Processors.available
    guard threads > 0, threads <= 512 else {
      throw .invalidParameter(.init(name: "threads", value: "\(threads)", expected: "1 to 512"))
    }
    let executor = DecodeExecutor.shared
    return try await executor.perform { () throws(LlamaError) -> LlamaEmbedder in
      try LlamaEmbedder(
        model: model, batchTokens: batchTokens, maxSequences: maxSequences, threads: threads, executor: executor)
    }
  }

  private init(
    model: LlamaModel, batchTokens: Int, maxSequences: Int, threads: Int, executor: DecodeExecutor
  ) throws(LlamaError) {
    var params = llama_context_default_params()
    params.n_ctx = UInt32(batchTokens)
    // An encoder attends over the whole text at once, so a text must fit in one micro-batch.
    params.n_batch = UInt32(batchTokens)
    params.n_ubatch = UInt32(batchTokens)
    params.n_seq_max = UInt32(maxSequences)
    params.kv_unified = true
    params.n_threads = Int32(threads)
    params.n_threads_batch = Int32(threads)
    params.embeddings = true
    params.no_perf = true
    let (created, errors) = LlamaLogCapture.capturingErrors { llama_init_from_model(model.pointer, params) }
    guard let created else {
      throw .contextCreationFailed(reason: errors.last ?? "llama.cpp gave no reason")
    }
    guard llama_pooling_type(created) != LLAMA_POOLING_TYPE_NONE,
      llama_pooling_type(created) != LLAMA_POOLING_TYPE_RANK
    else {
      llama_free(created)
      throw .notAnEmbeddingModel(model: model.metadata.name)
    }
    self.model = model
    self.dimension = Int(llama_model_n_embd_out(model.pointer))
    self.maxTokensPerText = min(batchTokens, model.metadata.trainedContextLength)
    self.batchTokens = batchTokens
    self.maxSequences = maxSequences
    self.threads = threads
    self.context = created
    self.executor = executor
    self.batch = llama_batch_init(Int32(batchTokens), 0, 1)
    self.threadpool = hearth_cpu_threadpool_new(Int32(threads))
    if let threadpool {
      llama_attach_threadpool(created, threadpool, nil)
    }
  }

  deinit {
    let (batch, context, threadpool) = (batch, context, threadpool)
    LlamaBackend.unlessExiting {
      llama_batch_free(batch)
      llama_free(context)
      hearth_cpu_threadpool_free(threadpool)
    }
  }

  /// The tokens the model reads for `text`, special tokens included: what counts against
  /// ``maxTokensPerText``.
  public func tokenCount(_ text: String) throws(LlamaError) -> Int {
    try tokenized(text).count
  }

  /// The tokens the model reads for `text`, special tokens included, ready for ``embed(tokenized:)``.
  public func tokenized(_ text: String) throws(LlamaError) -> [Int32] {
    try model.tokenize(text, addSpecial: true, parseSpecial: false)
  }

  /// Embeds one text.
  public func embed(_ text: String) async throws(LlamaError) -> [Float] {
    try await embed([text])[0]
  }

  /// Embeds `texts`, in order, packing as many into each decode as fit.
  /// - Throws: ``LlamaError/inputTooLong(index:tokens:limit:)`` naming the first text beyond
  ///   ``maxTokensPerText``, before any work is done; ``LlamaError/emptyPrompt`` for an empty text.
  public func embed(_ texts: [String]) async throws(LlamaError) -> [[Float]] {
    var inputs: [[Int32]] = []
    inputs.reserveCapacity(texts.count)
    for (index, text) in texts.enumerated() {
      guard !text.isEmpty else { throw .emptyPrompt }
      let tokens = try tokenized(text)
      guard tokens.count <= maxTokensPerText else {
        throw .inputTooLong(index: index, tokens: tokens.count, limit: maxTokensPerText)
      }
      inputs.append(tokens)
    }
    return try await embed(tokenized: inputs)
  }

  /// Embeds texts already tokenized with special tokens (each at most ``maxTokensPerText`` long).
  public func embed(tokenized: [[Int32]]) async throws(LlamaError) -> [[Float]] {
    var vectors: [[Float]] = []
    vectors.reserveCapacity(tokenized.count)
    var start = 0
    while start < tokenized.count {
      var end = start
      var used = 0
      while end < tokenized.count, end - start < maxSequences, used + tokenized[end].count <= batchTokens {
        used += tokenized[end].count
        end += 1
      }
      guard end > start else {
        throw .inputTooLong(index: start, tokens: tokenized[start].count, limit: maxTokensPerText)
      }
      let group = Array(tokenized[start..<end])
      vectors += try await executor.perform { () throws(LlamaError) -> [[Float]] in
        try self.decodeGroup(group)
      }
      start = end
    }
    return vectors
  }

  /// Runs on the decode thread: evaluates each text as its own sequence and reads back the pooled vectors.
  private func decodeGroup(_ group: [[Int32]]) throws(LlamaError) -> [[Float]] {
    llama_memory_clear(llama_get_memory(context), true)
    var index = 0
    for (sequence, tokens) in group.enumerated() {
      for (position, token) in tokens.enumerated() {
        batch.token[index] = token
        batch.pos[index] = Int32(position)
        batch.n_seq_id[index] = 1
        batch.seq_id[index]![0] = Int32(sequence)
        batch.logits[index] = 1
        index += 1
      }
    }
    batch.n_tokens = Int32(index)
    let (context, batch) = (context, batch)
    guard let code = LlamaBackend.unlessExiting({ llama_decode(context, batch) }) else {
      throw .decodeFailed(code: -1, position: 0)
    }
    guard code == 0 else { throw .decodeFailed(code: code, position: 0) }
    return try (0..<group.count).map { sequence throws(LlamaError) -> [Float] in
      guard let pooled = llama_get_embeddings_seq(context, Int32(sequence)) else {
        throw .notAnEmbeddingModel(model: model.metadata.name)
      }
      return Self.normalised(UnsafeBufferPointer(start: pooled, count: dimension))
    }
  }

  private static func normalised(_ values: UnsafeBufferPointer<Float>) -> [Float] {
    var sum: Double = 0
    for value in values { sum += Double(value) * Double(value) }
    let scale = sum > 0 ? Float(1 / sum.squareRoot()) : 0
    return values.map { $0 * scale }
  }
}
