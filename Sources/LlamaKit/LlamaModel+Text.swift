internal import CLlama
import Foundation
public import HearthCore

extension LlamaModel {
  /// Turns text into tokens.
  /// - Parameters:
  ///   - addSpecial: add the tokens the model expects at the start of a sequence (e.g. BOS).
  ///   - parseSpecial: treat special-token text such as `<|im_start|>` as those tokens.
  public func tokenize(_ text: String, addSpecial: Bool, parseSpecial: Bool) throws(LlamaError) -> [Int32] {
    let utf8 = Array(text.utf8)
    guard utf8.count < Int32.max / 2 else { throw .tokenizationFailed(reason: "the text is too long") }
    var tokens = [llama_token](repeating: 0, count: utf8.count + 8)
    var count = tokenize(utf8, into: &tokens, addSpecial: addSpecial, parseSpecial: parseSpecial)
    if count < 0, count != Int32.min {
      tokens = [llama_token](repeating: 0, count: Int(-count))
      count = tokenize(utf8, into: &tokens, addSpecial: addSpecial, parseSpecial: parseSpecial)
    }
    guard count >= 0 else { throw .tokenizationFailed(reason: "llama.cpp returned \(count)") }
    return Array(tokens.prefix(Int(count)))
  }

  private func tokenize(
    _ utf8: [UInt8], into tokens: inout [llama_token], addSpecial: Bool, parseSpecial: Bool
  )
    -> Int32
  {
    utf8.withUnsafeBufferPointer { text in
      text.withMemoryRebound(to: CChar.self) { chars in
        tokens.withUnsafeMutableBufferPointer { out in
          llama_tokenize(
            vocab, chars.baseAddress, Int32(chars.count), out.baseAddress, Int32(out.count), addSpecial,
            parseSpecial)
        }
      }
    }
  }

  /// The bytes a token stands for. Control tokens render as nothing; a single token may hold only part of a
  /// multi-byte character.
  public func pieceBytes(of token: Int32) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 32)
    var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    if length < 0 {
      buffer = [CChar](repeating: 0, count: Int(-length))
      length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
    }
    return buffer.prefix(Int(max(0, length))).map { UInt8(bitPattern: $0) }
  }

  /// Turns tokens back into text.
  public func detokenize(_ tokens: [Int32]) -> String {
    var assembler = UTF8Assembler()
    var text = ""
    for token in tokens {
      text += assembler.append(pieceBytes(of: token))
    }
    return text + assembler.flush()
  }

  /// The chat template in use: the configured override, else the model's own.
  public var effectiveChatTemplate: String? {
    options.chatTemplateOverride ?? metadata.chatTemplate
  }

  /// Renders `messages` as a prompt with the model's chat template (or the configured override), ending with
  /// the start of the assistant's turn when `addAssistantPrefix` is set. A conversation that ends with an
  /// assistant message is continued: the prompt ends with that message's text, so the answer extends it.
  /// - Throws: ``LlamaError/missingChatTemplate(model:)`` when neither exists; never falls back silently.
  public func formatChat(_ messages: [ChatMessage], addAssistantPrefix: Bool = true) throws(LlamaError) -> String {
    if addAssistantPrefix, let last = messages.last, last.role == .assistant {
      return try formatChat(Array(messages.dropLast()), addAssistantPrefix: true) + last.content
    }
    guard let template = effectiveChatTemplate else { throw .missingChatTemplate(model: metadata.name) }
    let roles = messages.map { strdup($0.role.rawValue) }
    let contents = messages.map { strdup($0.content) }
    defer { (roles + contents).forEach { free($0) } }
    var chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
    let capacity = messages.reduce(256) { $0 + 2 * $1.content.utf8.count }
    var buffer = [CChar](repeating: 0, count: capacity)
    var length = llama_chat_apply_template(
      template, &chat, chat.count, addAssistantPrefix, &buffer, Int32(clamping: buffer.count))
    if length > buffer.count {
      buffer = [CChar](repeating: 0, count: Int(length) + 1)
      length = llama_chat_apply_template(
        template, &chat, chat.count, addAssistantPrefix, &buffer, Int32(clamping: buffer.count))
    }
    guard length >= 0 else { throw .chatTemplateFailed(template: template) }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension LlamaModel: ModelVocabulary {
  public var tokenCount: Int { metadata.vocabularySize }

  public func prompt(for messages: [ChatMessage]) throws -> String {
    try formatChat(messages)
  }

  public func checkGrammar(_ grammar: String) throws {
    let (sampler, errors) = LlamaLogCapture.capturingErrors { llama_sampler_init_grammar(vocab, grammar, "root") }
    guard let sampler else { throw LlamaError.invalidGrammar(reason: errors.last ?? "llama.cpp gave no reason") }
    llama_sampler_free(sampler)
  }
}
