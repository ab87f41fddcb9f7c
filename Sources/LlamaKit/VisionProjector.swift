import CLlama
public import Foundation
import HearthCore

/// A vision model's projector (an `mmproj` GGUF) through llama.cpp's `mtmd`: it turns an image into tokens the
/// language model reads, so the model itself can say what the image shows and what it says.
public final class VisionProjector: @unchecked Sendable {
  /// What a projector file takes.
  public struct Capabilities: Sendable, Hashable {
    public var vision: Bool
    public var audio: Bool
  }

  public let path: String
  private let model: LlamaModel
  private let context: OpaquePointer
  private let threads: Int

  /// What the projector at `path` takes, read from its header without loading it.
  /// - Throws: ``LlamaError/projectorUnusable(path:reason:)`` for a missing file, a file that is no GGUF, or a
  ///   GGUF that is no projector.
  public static func capabilities(ofFile path: String) throws(LlamaError) -> Capabilities {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .projectorUnusable(path: path, reason: "no such file")
    }
    let magic = (try? handle.read(upToCount: 4)) ?? Data()
    try? handle.close()
    // A foreign file never reaches llama.cpp's reader.
    guard magic == Data("GGUF".utf8) else { throw .projectorUnusable(path: path, reason: "it is not a GGUF file") }
    let (caps, errors) = LlamaLogCapture.capturingErrors { mtmd_get_cap_from_file(path) }
    guard caps.inp_vision || caps.inp_audio else {
      throw .projectorUnusable(
        path: path, reason: errors.last ?? "it is not a multimodal projector (it has no image or audio encoder)")
    }
    return Capabilities(vision: caps.inp_vision, audio: caps.inp_audio)
  }

  /// Loads the projector for `model`.
  /// - Throws: ``LlamaError/projectorUnusable(path:reason:)`` when it is none, has no image encoder, or does not
  ///   fit the model.
  public init(path: String, model: LlamaModel, threads: Int) throws(LlamaError) {
    guard try Self.capabilities(ofFile: path).vision else {
      throw .projectorUnusable(path: path, reason: "it reads audio, not images")
    }
    var params = mtmd_context_params_default()
    params.use_gpu = false
    params.print_timings = false
    params.warmup = false
    params.n_threads = Int32(threads)
    let (created, errors) = LlamaLogCapture.capturingErrors { mtmd_init_from_file(path, model.pointer, params) }
    guard let created else {
      throw .projectorUnusable(path: path, reason: errors.last ?? "llama.cpp could not load it for this model")
    }
    self.path = path
    self.model = model
    self.context = created
    self.threads = threads
  }

  deinit { mtmd_free(context) }

  /// What the model writes about `image` (the bytes of a PNG, JPEG, BMP or GIF) when asked `question`, greedily,
  /// in a context of its own. Runs on the calling thread: call it on the decode thread.
  /// - Throws: ``LlamaError`` when the image cannot be decoded or the model fails.
  public func describe(_ image: Data, question: String, maxTokens: Int = 256) throws(LlamaError) -> String {
    let wrapper = image.withUnsafeBytes { bytes in
      mtmd_helper_bitmap_init_from_buf(
        context, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, false, mtmd_helper_init_opt_default())
    }
    guard let bitmap = wrapper.bitmap else {
      throw .projectorUnusable(path: path, reason: "the image could not be decoded")
    }
    defer { mtmd_bitmap_free(bitmap) }
    let marker = String(cString: mtmd_default_marker())
    let prompt = try model.formatChat([ChatMessage(role: .user, content: marker + "\n" + question)])
    guard let chunks = mtmd_input_chunks_init() else { throw .tokenizationFailed(reason: "no memory for the input") }
    defer { mtmd_input_chunks_free(chunks) }
    let tokenized = prompt.withCString { text -> Int32 in
      var input = mtmd_input_text(text: text, text_len: strlen(text), add_special: true, parse_special: true)
      var bitmaps: [OpaquePointer?] = [bitmap]
      return mtmd_tokenize(context, chunks, &input, &bitmaps, 1)
    }
    guard tokenized == 0 else {
      throw .tokenizationFailed(reason: "the image and prompt could not be tokenized (code \(tokenized))")
    }
    let promptTokens = Int(mtmd_helper_get_n_tokens(chunks))
    var params = llama_context_default_params()
    params.n_ctx = UInt32(promptTokens + maxTokens + 16)
    params.n_batch = 512
    params.n_ubatch = 512
    params.n_threads = Int32(threads)
    params.n_threads_batch = Int32(threads)
    params.no_perf = true
    let (created, errors) = LlamaLogCapture.capturingErrors { llama_init_from_model(model.pointer, params) }
    guard let lctx = created else {
      throw .contextCreationFailed(reason: errors.last ?? "llama.cpp gave no reason")
    }
    defer { llama_free(lctx) }
    var past: llama_pos = 0
    let evaluated = mtmd_helper_eval_chunks(context, lctx, chunks, 0, 0, 512, true, &past)
    guard evaluated == 0 else { throw .decodeFailed(code: evaluated, position: 0) }
    guard let sampler = llama_sampler_init_greedy() else { throw .contextCreationFailed(reason: "no sampler") }
    defer { llama_sampler_free(sampler) }
    var text = UTF8Assembler()
    var written = ""
    for _ in 0..<maxTokens {
      var token = llama_sampler_sample(sampler, lctx, -1)
      if llama_vocab_is_eog(model.vocab, token) { break }
      written += text.append(model.pieceBytes(of: token))
      let decoded = llama_decode(lctx, llama_batch_get_one(&token, 1))
      guard decoded == 0 else { throw .decodeFailed(code: decoded, position: Int(past)) }
      past += 1
    }
    return (written + text.flush()).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
