public import HearthCore

/// Why LlamaKit could not load a model or generate.
public enum LlamaError: Error, Sendable, CustomStringConvertible {
  /// The file failed the GGUF header check.
  case invalidModelFile(GGUFError)
  /// llama.cpp does not implement the model's architecture.
  case unsupportedArchitecture(name: String, path: String)
  /// llama.cpp refused the file for another reason (its own message is included).
  case loadFailed(path: String, reason: String)
  /// A context could not be created (usually not enough memory).
  case contextCreationFailed(reason: String)
  /// A requested context size is out of range for the model.
  case invalidContextSize(requested: Int, trainedMaximum: Int)
  /// Another option is out of range.
  case invalidParameter(InvalidParameterError)
  /// The model has no chat template and none was configured.
  case missingChatTemplate(model: String)
  /// llama.cpp could not apply the chat template.
  case chatTemplateFailed(template: String)
  /// Text could not be turned into tokens.
  case tokenizationFailed(reason: String)
  /// The prompt leaves no room in the context window.
  case promptTooLong(promptTokens: Int, contextSize: Int)
  /// A prompt must contain at least one token.
  case emptyPrompt
  /// `llama_decode` failed.
  case decodeFailed(code: Int32, position: Int)
  /// llama.cpp could not parse the grammar that constrains the output.
  case invalidGrammar(reason: String)
  /// The model gives no pooled sentence vector, so it cannot embed text.
  case notAnEmbeddingModel(model: String)
  /// A text to embed is longer than the model's window; the caller must split it.
  case inputTooLong(index: Int, tokens: Int, limit: Int)
  /// An RPC worker cannot be used: this llama.cpp was built without RPC, or the worker did not answer.
  case rpcUnavailable(endpoint: String, reason: String)
  /// A multimodal projector (an `mmproj` GGUF) that cannot be used, and why.
  case projectorUnusable(path: String, reason: String)

  public var description: String {
    switch self {
    case .projectorUnusable(let path, let reason):
      "the vision projector \(path.split(separator: "/").last.map(String.init) ?? path) cannot be used: \(reason)"
    case .rpcUnavailable(let endpoint, let reason):
      "the RPC worker \(endpoint) cannot be used: \(reason)"
    case .invalidModelFile(let error):
      error.description
    case .unsupportedArchitecture(let name, let path):
      "unsupported model architecture '\(name)' (this build of llama.cpp cannot run it): \(path)"
    case .loadFailed(let path, let reason):
      "could not load model \(path): \(reason)"
    case .contextCreationFailed(let reason):
      "could not create an inference context: \(reason)"
    case .invalidContextSize(let requested, let maximum):
      requested <= 0
        ? "invalid context size \(requested): expected a positive number of tokens (at most \(maximum))"
        : "context size \(requested) is larger than the model's trained context of \(maximum) tokens"
    case .invalidParameter(let error):
      error.description
    case .missingChatTemplate(let model):
      "model \(model) has no chat template; configure one (e.g. --chat-template chatml)"
    case .chatTemplateFailed(let template):
      "llama.cpp does not recognise the chat template '\(template.prefix(60))'"
    case .tokenizationFailed(let reason):
      "could not tokenize the prompt: \(reason)"
    case .promptTooLong(let promptTokens, let contextSize):
      "the prompt is \(promptTokens) tokens but the context holds \(contextSize); shorten it or raise --context"
    case .emptyPrompt:
      "the prompt is empty"
    case .invalidGrammar(let reason):
      "the output grammar is invalid: \(reason)"
    case .notAnEmbeddingModel(let model):
      "model \(model) does not produce sentence embeddings (no pooling); choose an embedding model"
    case .inputTooLong(let index, let tokens, let limit):
      "input \(index) is too large: \(tokens) tokens, but the embedding model reads at most \(limit); split it"
    case .decodeFailed(let code, let position):
      "llama.cpp failed to decode at position \(position) (code \(code))"
    }
  }
}
