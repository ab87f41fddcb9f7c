import Foundation
import HearthCore
import HearthEngine
import HearthStore
import LlamaKit

/// The user's data directory and database, opened by commands that read or change sessions.
struct Profile {
  let paths: HearthPaths
  let database: HearthDatabase

  static func open() throws -> Profile {
    let paths = HearthPaths()
    return Profile(paths: paths, database: try HearthDatabase(path: paths.database.path))
  }
}

/// Everything a chatting command needs: the profile, the model and the chat service, with start-up repair
/// done under the profile lock.
struct ChatRuntime {
  let profile: Profile
  let model: LocalChatModel
  let service: ChatService
  let lock: ProfileLock
  let loadTime: Duration

  /// Opens the profile (unless the caller already has it open), repairs and prunes it under the lock,
  /// and loads the model.
  static func start(
    _ options: ModelOptionGroup, generation: GenerationOptions, showsThinking: Bool = true,
    profile: Profile? = nil
  )
    async throws -> ChatRuntime
  {
    let profile = try profile ?? Profile.open()
    let lock = try ProfileLock(path: profile.paths.generationLock) {
      try profile.database.repairAfterCrash()
    }
    if let policy = HistoryPolicy(environment: ProcessInfo.processInfo.environment) {
      try profile.database.prune(policy)
    }
    let (session, loadTime) = try await options.loadSession()
    let model = LocalChatModel(session: session)
    let service = ChatService(
      database: profile.database, model: model,
      configuration: ChatConfiguration(generation: generation, showsThinking: showsThinking))
    return ChatRuntime(profile: profile, model: model, service: service, lock: lock, loadTime: loadTime)
  }

  /// The system prompt: the user's own, or Hearth's identity and today's date.
  static func systemPrompt(_ custom: String?, model: LocalChatModel) -> String {
    systemPrompt(custom, model: model.session.model)
  }

  /// The system prompt for `model` when no chat service is involved.
  static func systemPrompt(_ custom: String?, model: LlamaModel) -> String {
    if let custom { return custom }
    var builder = SystemPromptBuilder()
    builder.add(SystemPromptBuilder.identity())
    builder.add(SystemPromptBuilder.date(Date()))
    return builder.build { text in
      (try? model.tokenize(text, addSpecial: false, parseSpecial: false).count) ?? text.count
    }
  }
}

/// Prints a turn's events as they arrive and returns the final message.
enum TurnPrinter {
  static func print(_ events: AsyncStream<ChatEvent>, quiet: Bool = false) async -> StoredMessage? {
    var final: StoredMessage?
    var thinking = false
    for await event in events {
      switch event {
      case .started: break
      case .trimmed(let dropped):
        if !quiet {
          Terminal.writeError(Terminal.dim("(conversation trimmed: \(dropped) earlier messages summarised)") + "\n")
        }
      case .thinking(let text):
        guard !quiet else { continue }
        if !thinking { Terminal.write(Terminal.dim("thinking: ")) }
        thinking = true
        Terminal.write(Terminal.dim(text))
      case .answer(let text):
        guard !quiet else { continue }
        if thinking {
          Terminal.write("\n")
          thinking = false
        }
        Terminal.write(text)
      case .finished(let message): final = message
      }
    }
    return final
  }

  /// A notice for an answer that did not end normally.
  static func notice(for message: StoredMessage) -> String? {
    switch message.state {
    case .failed: "[failed: \(message.error ?? "unknown error")]"
    case .cancelled: "[stopped]"
    case .timedOut: "[stopped: time limit reached; the partial answer was kept]"
    case .interrupted: "[interrupted]"
    case .complete, .generating: message.stopReason.flatMap { $0.notice }
    }
  }
}
