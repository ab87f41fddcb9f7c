import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import Synchronization

struct ChatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: "Chat interactively; Ctrl-C stops the current answer, /quit leaves.",
    discussion: """
      Continues the most recent session unless --new or --session is given. Commands:
        /new               start a new session
        /sessions          list recent sessions
        /switch ID         continue another session (id or unique prefix)
        /rename TITLE      rename this session
        /pin               pin or unpin this session
        /stats             figures of the last answer
        /retry             answer your last message again (the old answer is kept as a version)
        /edit TEXT         send TEXT in place of your last message (the old one is kept as a version)
        /continue          carry on the last answer where it stopped
        /versions [N]      the versions of the latest fork; N shows version N
        y / n              confirm or decline the changes the last answer proposed
        /reschedule N      move an event that overlaps others to the Nth free time offered
        /undo [ID]         take back an action (the latest one of this session by default)
        /actions           what this session's answers did
        /memory on|off     let this session's answers draw on the memory, or not
        /find WORDS        the messages of this chat that hold WORDS
        /p NAME [MORE]     send the pinned prompt NAME (with MORE after it); /p lists them
        /reply N TEXT      send TEXT as a reply to message N (as /find numbers them), quoting it
        /attach FILE       read a file (a document, or an image by OCR) to go with your next message
        /help, /quit
      """
  )

  @Option(name: .long, help: "System prompt.")
  var system: String?

  @Option(name: .long, help: "Continue this session (id or unique id prefix).")
  var session: String?

  @Flag(name: .long, help: "Start a new session.")
  var new = false

  @Option(name: .long, help: "Start a new session answered by this persona (name or id; see hearth personas).")
  var persona: String?

  @Flag(name: .long, help: "Hide the model's thinking.")
  var hideThinking = false

  @OptionGroup var modelOptions: ModelOptionGroup
  @OptionGroup var samplingOptions: SamplingOptionGroup

  func validate() throws {
    if new, session != nil { throw ValidationError("--new and --session cannot be combined") }
    if persona != nil, session != nil {
      throw ValidationError("--persona starts a new session; a session keeps the persona it was started with")
    }
    if persona != nil, system != nil {
      throw ValidationError("--persona answers by the persona's own prompt: drop --system, or change the persona")
    }
  }

  @Flag(name: .long, help: "Chat without acting on your calendar, reminders, notes, habits or contacts.")
  var noActions = false

  @Flag(name: .long, help: "Chat without drawing on the memory (notes, documents, past chats).")
  var noMemory = false

  func run() async throws {
    try await reportingFailures {
      let options = try samplingOptions.generationOptions()
      let engine = try await Engine.openForChat(
        modelOptions, generation: options, showsThinking: !hideThinking, actions: !noActions, memory: !noMemory)
      guard let model = engine.model else { return }
      let library = engine.sessions
      var current = try await startingSession(engine)
      Terminal.write(
        Terminal.dim(
          "\(engine.activeModelLabel() ?? model.displayName) · context \(model.contextSize) · loaded in \(Int(model.loadTime.milliseconds)) ms\n"
            + "Session “\(current.title)” (\(current.id.uuidString.prefix(8))); /help for commands.\n"))
      let asked = try engine.actions.log(state: .pending).filter { $0.source != nil }
      if !asked.isEmpty {
        Terminal.write(
          "\(asked.count) change\(asked.count == 1 ? "" : "s") other assistants asked for over MCP wait\(asked.count == 1 ? "s" : "") "
            + "for you: hearth actions log --pending\n")
      }
      for message in try library.messages(in: current.id).suffix(4) {
        Terminal.write(Terminal.dim("\(message.role.rawValue): \(message.content.prefix(200))") + "\n")
      }
      let notices = ChatNotices(engine.notices)
      let watching = notices.watch()
      defer { watching.cancel() }
      // The session answering right now, if any: Ctrl-C stops its answer, otherwise leaves.
      let answering = Mutex<UUID?>(nil)
      let service = engine.chat
      let interrupts = InterruptHandler {
        guard let sessionID = answering.withLock({ $0 }) else {
          Terminal.write("\n")
          Foundation.exit(0)
        }
        Task { await service.stop(sessionID) }
      }
      defer { withExtendedLifetime(interrupts) {} }
      var last: StoredMessage?
      var pending: [ActionRecord] = []
      // The last answer's event that overlaps others, and the free times offered for it.
      var conflict: (record: ActionRecord, choices: ConflictChoices)?
      // Files read with /attach, waiting for the next message.
      var attached: [UUID] = []
      /// Runs a turn of the chat, printing it as it comes; Ctrl-C stops it meanwhile.
      func show(_ kind: TurnKind) async throws {
        answering.withLock { $0 = current.id }
        notices.setAnswering(true)
        defer {
          answering.withLock { $0 = nil }
          notices.setAnswering(false)
        }
        var files: [UUID] = []
        if case .message = kind { (files, attached) = (attached, []) }
        // A chat's persona samples by its preset, under the values given as flags.
        let preset = try engine.personas.persona(ofSession: current.id)?.preset
        let turnOptions = preset == nil ? options : try samplingOptions.generationOptions(preset: preset)
        let outcome = try await TurnPrinter.run(
          TurnRequest(session: current.id, kind: kind, systemPrompt: system, options: turnOptions, attachments: files),
          on: engine)
        if let failure = outcome.failure { throw failure }
        last = outcome.message
        pending = outcome.actions.filter { $0.state == .pending }
        conflict =
          outcome.actions.lazy.compactMap { record in engine.conflictChoices(for: record).map { (record, $0) } }
          .first
        if let conflict { Terminal.write("\n" + TurnPrinter.conflictLines(conflict.choices, of: conflict.record)) }
        Terminal.write("\n")
        if let last, let notice = TurnPrinter.notice(for: last) { Terminal.write(Terminal.dim(notice) + "\n") }
      }

      Terminal.write("> ")
      for await line in LineReader.lines() {
        let input = line.trimmingCharacters(in: .whitespaces)
        let (command, argument) = Self.split(input)
        switch command {
        case "": break
        case "/quit", "/exit":
          await engine.settleWrites()
          return
        case "/help": Terminal.write(Self.configuration.discussion + "\n")
        case "/find":
          let found = ChatFind.lines(for: argument, in: try library.messages(in: current.id))
          if argument.isEmpty {
            Terminal.writeError("hearth: /find needs the words to look for\n")
          } else {
            Terminal.write(
              found.isEmpty ? "(no message here holds “\(argument)”)\n" : found.joined(separator: "\n") + "\n")
          }
        case "/new":
          // A chat begun with --persona goes on with it.
          current = try await engine.newSession(persona: persona)
          attached = []
          (pending, conflict) = ([], nil)
          Terminal.write(Terminal.dim("(new session \(current.id.uuidString.prefix(8)))") + "\n")
        case "/sessions":
          for listed in try library.list(limit: 15) {
            let mark = listed.id == current.id ? "*" : " "
            Terminal.write("\(mark) \(listed.id.uuidString.prefix(8))  \(listed.isPinned ? "📌 " : "")\(listed.title)\n")
          }
        case "/switch":
          do {
            current = try library.session(matching: argument)
            // Files read for the chat left behind stay with it, and so do its cards.
            attached = []
            (pending, conflict) = ([], nil)
            Terminal.write(Terminal.dim("(switched to “\(current.title)”)") + "\n")
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/rename":
          guard !argument.isEmpty else {
            Terminal.writeError("hearth: /rename needs a title\n")
            break
          }
          current = try library.modify(current.id) { $0.title = argument }
          Terminal.write(Terminal.dim("(renamed to “\(current.title)”)") + "\n")
        case "/pin":
          current = try library.modify(current.id) { $0.isPinned.toggle() }
          Terminal.write(Terminal.dim(current.isPinned ? "(pinned)" : "(unpinned)") + "\n")
        case "/stats": Terminal.write(Self.describe(last, usage: model.lastUsage) + "\n")
        case "say" where !pending.isEmpty && ["y", "yes", "n", "no"].contains(input.lowercased()):
          let confirming = input.lowercased().hasPrefix("y")
          for record in pending {
            let settled =
              confirming ? try await engine.confirmAction(record.id) : try await engine.cancelAction(record.id)
            Terminal.write(TurnPrinter.card(settled) + "\n")
          }
          pending = []
          conflict = nil
        case "/reschedule":
          guard let chosen = conflict else {
            Terminal.writeError("hearth: the last answer's events overlap nothing\n")
            break
          }
          guard let number = Int(argument), chosen.choices.slots.indices.contains(number - 1) else {
            Terminal.writeError(
              "hearth: /reschedule takes the number of a free time, 1 to \(chosen.choices.slots.count)\n")
            break
          }
          do {
            let moved = try await engine.rescheduleAction(chosen.record.id, to: chosen.choices.slots[number - 1].start)
            Terminal.write(TurnPrinter.card(moved) + "\n")
            pending.removeAll { $0.id == moved.id }
            conflict = nil
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/undo":
          do {
            let target =
              argument.isEmpty
              ? try engine.actions.log(session: current.id).first { $0.canUndo } : try engine.actions.record(argument)
            guard let target else {
              Terminal.writeError("hearth: nothing to undo in this session\n")
              break
            }
            Terminal.write(TurnPrinter.card(try await engine.undoAction(target.id)) + "\n")
            if conflict?.record.id == target.id { conflict = nil }
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/memory":
          switch argument.lowercased() {
          case "on", "off":
            try engine.memory.setUsesMemory(argument.lowercased() == "on", in: current.id)
            Terminal.write(Terminal.dim("(memory \(argument.lowercased()) for this session)") + "\n")
          case "":
            let uses = try engine.memory.usesMemory(in: current.id)
            Terminal.write(Terminal.dim("(memory is \(uses ? "on" : "off") for this session)") + "\n")
          default:
            Terminal.writeError("hearth: /memory takes on or off\n")
          }
        case "/actions":
          let records = try engine.actions.log(session: current.id, limit: 20)
          if records.isEmpty { Terminal.write(Terminal.dim("(no actions in this session)") + "\n") }
          for record in records.reversed() { Terminal.write(TurnPrinter.card(record) + "\n") }
        case "/retry", "/edit", "/continue":
          do {
            try await show(try Self.turnKind(command, argument, in: try library.messages(in: current.id)))
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/versions":
          do {
            Terminal.write(Terminal.dim(try await Self.versions(argument, in: current.id, engine: engine)) + "\n")
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/p":
          do {
            guard let text = try Self.pinned(argument, engine: engine) else { break }
            try await show(.message(text))
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/attach":
          do {
            guard !argument.isEmpty else { throw ValidationError("/attach needs a file") }
            let file = try await engine.attach(
              try AskCommand.contents(of: argument), name: argument, to: current.id)
            attached.append(file.id)
            Terminal.write(
              Terminal.dim(AskCommand.attachedLine(file, then: "it goes with your next message")) + "\n")
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case "/reply":
          do {
            let parts = argument.split(separator: " ", maxSplits: 1)
            guard let number = parts.first.flatMap({ Int($0) }), parts.count == 2 else {
              throw ValidationError("/reply takes a message number and your reply: /reply 2 Why?")
            }
            try await show(.message(try engine.reply(String(parts[1]), quotingNumber: number, in: current.id)))
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        case let unknown where unknown.hasPrefix("/"):
          Terminal.writeError("hearth: unknown command \(unknown); /help lists them\n")
        default:
          do {
            try await show(.message(input))
          } catch {
            Terminal.writeError("hearth: \(error)\n")
          }
        }
        Terminal.write("> ")
      }
      Terminal.write("\n")
    }
  }

  private func startingSession(_ engine: Engine) async throws -> ChatSession {
    if let session { return try engine.sessions.session(matching: session) }
    if let persona {
      try AskCommand.check(try engine.personas.find(persona), model: modelOptions.file.model, provider: nil)
      return try await engine.newSession(persona: persona)
    }
    if !new, let recent = try engine.sessions.list(limit: 1).first { return recent }
    return try await engine.chat.newSession()
  }

  /// The turn `/retry`, `/edit TEXT` or `/continue` asks for in a chat with these messages.
  private static func turnKind(_ command: String, _ argument: String, in messages: [StoredMessage]) throws -> TurnKind {
    switch command {
    case "/retry":
      guard argument.isEmpty else { throw ValidationError("/retry takes no argument") }
      guard let answer = messages.last(where: { $0.role == .assistant }) else {
        throw ValidationError("there is no answer to retry yet")
      }
      return .regenerate(answer.id)
    case "/continue":
      guard argument.isEmpty else { throw ValidationError("/continue takes no argument") }
      guard let answer = messages.last, answer.role == .assistant else {
        throw ValidationError("the chat does not end with an answer")
      }
      return .continueAnswer(answer.id)
    default:
      guard !argument.isEmpty else { throw ValidationError("/edit needs the new text of your last message") }
      guard let mine = messages.last(where: { $0.role == .user }) else {
        throw ValidationError("you have not written anything yet")
      }
      return .edit(mine.id, text: argument)
    }
  }

  /// `/versions [N]`: the latest fork's versions, or version N of it shown.
  private static func versions(_ argument: String, in sessionID: UUID, engine: Engine) async throws -> String {
    guard let fork = try engine.sessions.forks(in: sessionID).last else {
      return "(this chat has one version: nothing was retried or edited)"
    }
    guard !argument.isEmpty else {
      return
        "(showing version \(fork.current + 1) of \(fork.count) from message \(fork.position + 1); /versions N shows another)"
    }
    guard let number = Int(argument), (1...fork.count).contains(number) else {
      throw ValidationError("/versions takes a number from 1 to \(fork.count)")
    }
    let messages = try await engine.chat.showAlternative(number - 1, at: fork.position, in: sessionID)
    let shown = messages.filter { $0.index >= fork.position }.map {
      "\($0.role.rawValue): \($0.content.prefix(200))"
    }
    return (["(showing version \(number) of \(fork.count))"] + shown).joined(separator: "\n")
  }

  private static func split(_ input: String) -> (String, String) {
    guard input.hasPrefix("/") else { return (input.isEmpty ? "" : "say", input) }
    let parts = input.split(separator: " ", maxSplits: 1)
    return (String(parts[0]), parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "")
  }

  private static func describe(_ message: StoredMessage?, usage: GenerationUsage?) -> String {
    guard let message else { return "no answer yet" }
    let ttft = message.timeToFirstTokenMs.map { String(format: "%.0f ms", $0) } ?? "-"
    let prompt = usage.map {
      String(
        format: "prompt %d tokens (%d reused, %d evaluated, %.0f t/s)", $0.promptTokens, $0.reusedPromptTokens,
        $0.prefilledTokens, $0.prefillTokensPerSecond)
    }
    let generation = String(
      format: "generated %d tokens (%.1f t/s)", message.generatedTokens ?? 0, message.generationTokensPerSecond ?? 0)
    return [prompt, generation, "first token \(ttft)", "state \(message.state.rawValue)"].compactMap { $0 }
      .joined(separator: " · ")
  }
}
