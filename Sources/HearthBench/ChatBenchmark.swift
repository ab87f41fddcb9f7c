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
    /// The `hearth` executable, to time `hearth ask`'s first and second run in a fresh profile; `nil` skips it.
    public var hearthExecutable: String?

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

    var chatFigures: ChatFigures?
    if config.measuresChat { chatFigures = try await measureChat(progress: progress) }
    var ask: (first: Samples, second: Samples, promptTokens: Int)?
    if config.measuresChat, let executable = config.hearthExecutable {
      ask = try await AskPrefixBenchmark(
        executable: executable, modelPath: config.modelPath, threads: config.threads,
        repetitions: config.repetitions
      ).run(progress: progress)
    }
    progress("store: loading a \(config.sessionMessages)-message session")
    let loadMs = try StoreBenchmark.sessionLoad(
      in: config.workDirectory.appendingPathComponent("load.sqlite"), messages: config.sessionMessages)
    progress("store: searching \(config.searchMessages) messages")
    let searchMs = try StoreBenchmark.search(
      in: config.workDirectory.appendingPathComponent("search.sqlite"), messages: config.searchMessages)
    let empty = Samples(samples: [])
    return ChatBenchmarkReport(
      turn: config.turns, historyTokens: chatFigures?.historyTokens ?? 0,
      firstTokenWithReuse: chatFigures?.withReuse ?? empty, firstTokenWithoutReuse: chatFigures?.withoutReuse ?? empty,
      restartHistoryTokens: chatFigures?.restartHistoryTokens ?? 0,
      firstTokenRestored: chatFigures?.restored ?? empty, firstTokenReread: chatFigures?.reread ?? empty,
      askPromptTokens: ask?.promptTokens ?? 0, askFirstRun: ask?.first ?? empty, askSecondRun: ask?.second ?? empty,
      sessionMessages: config.sessionMessages, sessionLoadMs: loadMs, searchMessages: config.searchMessages,
      searchMs: searchMs)
  }

  /// What the conversation part measured.
  private struct ChatFigures {
    var historyTokens: Int
    var withReuse: Samples
    var withoutReuse: Samples
    var restartHistoryTokens: Int
    var restored: Samples
    var reread: Samples
  }

  private var modelOptions: LocalModelOptions {
    LocalModelOptions(path: configuration.modelPath, contextSize: 4096, threads: configuration.threads)
  }

  /// Prompt tokens of the measured turn, and its time to first token with and without reuse; then a turn
  /// after a restart, with the chat's state restored from disk and read again.
  private func measureChat(progress: Benchmark.Progress) async throws -> ChatFigures {
    let config = configuration
    progress("loading \(config.modelPath)")
    let model = try await LocalModel.load(modelOptions)
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
        if !reuses {
          // Nothing cached, in memory or on disk.
          await model.clearCache()
          try? FileManager.default.removeItem(at: engine.paths.conversationStates)
        }
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

    let (restartTokens, restored, reread) = try await measureRestarts(
      of: chat.id, in: engine.paths, after: questions.last!, options: options, progress: progress)
    return ChatFigures(
      historyTokens: historyTokens, withReuse: Samples(samples: withReuse),
      withoutReuse: Samples(samples: withoutReuse), restartHistoryTokens: restartTokens, restored: restored,
      reread: reread)
  }

  /// A new question to the chat after a restart (a fresh model and engine on the profile), alternately with
  /// the chat's state restored from disk and with it gone (the whole chat read again). Each turn stays, so
  /// the next restored turn starts from the state the last one left.
  private func measureRestarts(
    of chat: UUID, in paths: HearthPaths, after question: String, options: GenerationOptions,
    progress: Benchmark.Progress
  ) async throws -> (Int, Samples, Samples) {
    var restored: [Double] = []
    var reread: [Double] = []
    var promptTokens = 0
    for repetition in 0..<configuration.repetitions {
      for restores in repetition % 2 == 0 ? [false, true] : [true, false] {
        progress("after a restart: chat \(restores ? "restored from disk" : "read again")")
        if !restores { try? FileManager.default.removeItem(at: paths.conversationStates) }
        let model = try await LocalModel.load(modelOptions)
        let engine = try Engine.open(EngineConfiguration(paths: paths), model: model)
        let (_, usage) = try await Self.answer(
          engine.chat, model, "\(question) (\(repetition)\(restores ? "a" : "b"))", chat, options)
        // Idle: the chat's state is written, for the next restored turn.
        await model.settle()
        guard let usage, let ttft = usage.timeToFirstToken else {
          throw BenchmarkError.measurementFailed("a turn after a restart produced no token")
        }
        if restores {
          guard usage.reusedPromptTokens > usage.promptTokens / 2 else {
            throw BenchmarkError.measurementFailed("the saved state was not used after a restart")
          }
          restored.append(ttft.milliseconds)
        } else {
          reread.append(ttft.milliseconds)
        }
        promptTokens = usage.promptTokens
      }
    }
    return (promptTokens, Samples(samples: restored), Samples(samples: reread))
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
  /// Prompt tokens of the last turn measured after a restart.
  public var restartHistoryTokens: Int
  /// Milliseconds to the first token after a restart, with the chat's state restored from disk.
  public var firstTokenRestored: Samples
  /// Milliseconds to the first token after a restart, with the whole chat read again.
  public var firstTokenReread: Samples
  /// Prompt tokens of `hearth ask` with the default system prompt.
  public var askPromptTokens: Int
  /// Milliseconds to the first token of `hearth ask`, first run in a fresh profile and the run after it.
  public var askFirstRun: Samples
  public var askSecondRun: Samples
  public var sessionMessages: Int
  /// Milliseconds to load every message of the large session.
  public var sessionLoadMs: Samples
  public var searchMessages: Int
  /// Milliseconds per full-text search.
  public var searchMs: Samples

  /// Median time to first token after a restart, restored ÷ read again.
  public var restartRatio: Double {
    firstTokenReread.median > 0 ? firstTokenRestored.median / firstTokenReread.median : 0
  }

  /// Median time to first token of `hearth ask`'s second run ÷ its first.
  public var askRatio: Double { askFirstRun.median > 0 ? askSecondRun.median / askFirstRun.median : 0 }

  /// Median time to first token with reuse ÷ without.
  public var reuseRatio: Double {
    firstTokenWithoutReuse.median > 0 ? firstTokenWithReuse.median / firstTokenWithoutReuse.median : 0
  }
}
