public import Foundation
import HearthCore
import HearthEngine
import HearthStore

/// `hearth bench chat`: what the KV cache saves on a long chat, and how fast the store is at scale.
///
/// A 10-turn conversation is run for real (greedy, so it is reproducible). Its last turn is then answered
/// again, alternately from an empty cache and with the history cached, with the same prompt each time.
/// The store is measured on a scratch database: loading a 10,000-message session and a full-text search
/// over 100,000 messages.
public struct ChatBenchmark: Sendable {
  /// What to measure.
  public struct Configuration: Sendable {
    public var modelPath: String
    public var threads: Int
    public var turns = 10
    public var answerTokens = 112
    public var repetitions = 3
    public var sessionMessages = 10_000
    public var searchMessages = 100_000
    /// Run the conversation part (it needs the model); the store part always runs.
    public var measuresChat = true
    /// Scratch folder for the databases (removed afterwards).
    public var workDirectory: URL

    public init(modelPath: String, threads: Int, workDirectory: URL) {
      self.modelPath = modelPath
      self.threads = threads
      self.workDirectory = workDirectory
    }
  }

  private let configuration: Configuration

  public init(configuration: Configuration) {
    self.configuration = configuration
  }

  public func run(progress: Benchmark.Progress) async throws -> ChatBenchmarkReport {
    let config = configuration
    try FileManager.default.createDirectory(at: config.workDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: config.workDirectory) }

    var chatFigures: (Int, Samples, Samples) = (0, Samples(samples: []), Samples(samples: []))
    if config.measuresChat { chatFigures = try await measureChat(progress: progress) }
    progress("store: loading a \(config.sessionMessages)-message session")
    let loadMs = try StoreBenchmark.sessionLoad(
      in: config.workDirectory.appendingPathComponent("load.sqlite"), messages: config.sessionMessages)
    progress("store: searching \(config.searchMessages) messages")
    let searchMs = try StoreBenchmark.search(
      in: config.workDirectory.appendingPathComponent("search.sqlite"), messages: config.searchMessages)
    return ChatBenchmarkReport(
      turn: config.turns, historyTokens: chatFigures.0, firstTokenWithReuse: chatFigures.1,
      firstTokenWithoutReuse: chatFigures.2, sessionMessages: config.sessionMessages,
      sessionLoadMs: loadMs, searchMessages: config.searchMessages, searchMs: searchMs)
  }

  /// Prompt tokens of the measured turn, and its time to first token with and without reuse.
  private func measureChat(progress: Benchmark.Progress) async throws -> (Int, Samples, Samples) {
    let config = configuration
    progress("loading \(config.modelPath)")
    let model = try await LocalModel.load(
      LocalModelOptions(path: config.modelPath, contextSize: 4096, threads: config.threads))
    let engine = try Engine.open(
      EngineConfiguration(paths: HearthPaths(home: config.workDirectory.appendingPathComponent("chat"))),
      model: model)
    let service = engine.chat
    let chat = try await service.newSession()
    let options = GenerationOptions(maxNewTokens: config.answerTokens, sampling: .greedy)
    let questions = ChatScript.questions(count: config.turns)

    for (index, question) in questions.dropLast().enumerated() {
      progress("turn \(index + 1) of \(config.turns)")
      _ = try await Self.answer(service, model, question, chat.id, options)
    }
    var withReuse: [Double] = []
    var withoutReuse: [Double] = []
    var historyTokens = 0
    for repetition in 0..<config.repetitions {
      for reuses in repetition % 2 == 0 ? [false, true] : [true, false] {
        progress("turn \(config.turns): \(reuses ? "with" : "without") cache reuse")
        if !reuses { await model.clearCache() }
        let (answer, usage) = try await Self.answer(service, model, questions.last!, chat.id, options)
        guard let usage, let ttft = usage.timeToFirstToken else {
          throw BenchmarkError.measurementFailed("turn \(config.turns) produced no token")
        }
        historyTokens = usage.promptTokens
        if reuses {
          guard usage.reusedPromptTokens > 0 else { throw BenchmarkError.measurementFailed("nothing was reused") }
          withReuse.append(ttft.milliseconds)
        } else {
          withoutReuse.append(ttft.milliseconds)
        }
        // Take the turn back so the next repetition sends the very same prompt.
        try engine.sessions.deleteMessage(answer.id)
        try engine.sessions.deleteMessage(try engine.sessions.messages(in: chat.id).last!.id)
      }
    }

    return (historyTokens, Samples(samples: withReuse), Samples(samples: withoutReuse))
  }

  private static func answer(
    _ service: ChatService, _ model: LocalModel, _ text: String, _ id: UUID, _ options: GenerationOptions
  ) async throws -> (StoredMessage, GenerationUsage?) {
    var final: StoredMessage?
    for await event in try await service.send(text, to: id, options: options) {
      if case .finished(let message) = event { final = message }
    }
    guard let final, final.state == .complete else {
      throw BenchmarkError.measurementFailed(
        "a turn ended as \(final?.state.rawValue ?? "nothing"): \(final?.error ?? "")")
    }
    return (final, model.lastUsage)
  }
}

/// What `hearth bench chat` measured.
public struct ChatBenchmarkReport: Sendable {
  public var turn: Int
  /// Prompt tokens of the measured turn.
  public var historyTokens: Int
  /// Milliseconds to the first token of the measured turn.
  public var firstTokenWithReuse: Samples
  public var firstTokenWithoutReuse: Samples
  public var sessionMessages: Int
  /// Milliseconds to load every message of the large session.
  public var sessionLoadMs: Samples
  public var searchMessages: Int
  /// Milliseconds per full-text search.
  public var searchMs: Samples

  /// Median time to first token with reuse ÷ without.
  public var reuseRatio: Double {
    firstTokenWithoutReuse.median > 0 ? firstTokenWithReuse.median / firstTokenWithoutReuse.median : 0
  }
}
