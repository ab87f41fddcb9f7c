public import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct AskCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ask",
    abstract: "Answer one prompt, streamed to standard output.",
    discussion: "With no PROMPT argument the prompt is read from standard input."
  )

  @Argument(help: "The prompt.")
  var prompt: String?

  @Option(name: .long, help: "System prompt.")
  var system: String?

  @Flag(name: .long, help: "Print one JSON object with the answer, usage and timings instead of streaming.")
  var json = false

  @Option(name: .long, help: "Continue this session (id or unique id prefix) instead of starting a new one.")
  var session: String?

  @Flag(name: .long, help: "Answer without acting on your calendar, reminders, notes, habits or contacts.")
  var noActions = false

  @Flag(name: .long, help: "Answer without drawing on the memory (notes, documents, past chats).")
  var noMemory = false

  @Flag(name: .long, help: "Do not save the exchange as a session.")
  var noSave = false

  @Option(name: .long, help: "Start the session with this persona (name or id; see hearth personas), which answers.")
  var persona: String?

  @Option(
    name: .long,
    help:
      "A file whose text goes with the prompt as data: .txt, .md, .html, .pdf, or an image read by OCR (repeatable).",
    completion: .file())
  var attach: [String] = []

  @Option(
    name: .long,
    help: "Who answers: local, remote (HEARTH_REMOTE_URL; fails when unreachable) or auto (remote when reachable).")
  var provider: ProviderPreference?

  @OptionGroup var modelOptions: ModelOptionGroup
  @OptionGroup var samplingOptions: SamplingOptionGroup

  /// A persona with a model of its own answers with it, on this machine: a flag that asks otherwise is refused.
  static func check(_ persona: Persona, model file: String?, provider: ProviderPreference?) throws {
    guard let own = persona.model else { return }
    if let file {
      throw ValidationError("\(persona.name) answers with \(own): drop --model \(file), or change the persona")
    }
    if provider == .remote {
      throw ValidationError("\(persona.name) answers with \(own) on this machine: drop --provider remote")
    }
  }

  func validate() throws {
    if noSave, session != nil { throw ValidationError("--no-save and --session cannot be combined") }
    if noSave, !attach.isEmpty { throw ValidationError("--attach keeps the files with the chat: drop --no-save") }
    if persona != nil, system != nil {
      throw ValidationError("--persona answers by the persona's own prompt: drop --system, or change the persona")
    }
    if persona != nil, noSave || session != nil {
      throw ValidationError(
        "--persona starts a new session: drop \(noSave ? "--no-save" : "--session") (a session keeps the persona it was started with)"
      )
    }
  }

  func run() async throws {
    try await reportingFailures {
      var options = try samplingOptions.generationOptions()
      let text = try promptText()
      let engine = try await Engine.openForChat(
        modelOptions, generation: options, actions: !noActions, memory: !noMemory, provider: provider)
      guard let model = engine.model else { return }
      // A turn that is not saved runs the same steps as one that is, on a session kept in memory for it alone.
      var request = TurnRequest.ephemeral(text, systemPrompt: system, options: options, usesMemory: !noMemory)
      var target: ChatSession?
      if !noSave {
        // The persona that answers: the one asked for, or the continued chat's. Checked before a chat is made.
        let continued = try session.map { try engine.sessions.session(matching: $0) }
        let answering =
          try continued.map { try engine.personas.persona(ofSession: $0.id) }
          ?? persona.map {
            try engine.personas.find($0)
          }
        if let answering {
          try Self.check(answering, model: modelOptions.file.model, provider: provider)
          // It samples by its preset, under the values given as flags.
          if let preset = answering.preset { options = try samplingOptions.generationOptions(preset: preset) }
        }
        let kept: ChatSession
        if let continued {
          kept = continued
        } else {
          kept = try await engine.newSession(persona: answering?.id.uuidString)
        }
        var attached: [UUID] = []
        for path in attach {
          let file = try await engine.attach(try Self.contents(of: path), name: path, to: kept.id)
          attached.append(file.id)
          if !json {
            Terminal.writeError(Terminal.dim(Self.attachedLine(file)) + "\n")
          }
        }
        request = TurnRequest(
          session: kept.id, kind: .message(text), systemPrompt: system, options: options, attachments: attached)
        target = kept
      }
      let outcome = try await TurnPrinter.run(request, on: engine, quiet: json)
      // The chat's state is written before the process ends, so `--session` finds it next time.
      await engine.settleWrites()
      if let failure = outcome.failure { throw failure }
      guard let message = outcome.message else { return }
      if json {
        // The turn has ended (and its generation with it), so these are its figures.
        var report = AskReport(
          text: message.content, stopReason: message.stopReason ?? .cancelled, usage: engine.lastUsage,
          model: model.path, loadTime: model.loadTime)
        report.sessionId = target?.id.uuidString
        report.thinking = message.thinking
        report.state = message.state.rawValue
        report.actions = outcome.actions
        report.sources = outcome.sources
        report.provider = engine.lastProvider?.rawValue
        Terminal.write(try JSONOutput.encode(report) + "\n")
      } else {
        Terminal.write("\n")
      }
      if message.state == .failed { throw AskFailure(message: message.error ?? "the answer failed") }
      if !json, let notice = TurnPrinter.notice(for: message) { Terminal.writeError(notice + "\n") }
    }
  }

  /// What was read from an attached file, and why an image went to OCR when a vision model was set up:
  /// `(notes.png: 59 characters read by OCR)`, with `then` after it.
  static func attachedLine(_ file: StoredAttachment, then: String? = nil) -> String {
    "(\(file.name): \(file.text.count) characters read\(file.reading == "ocr" ? " by OCR" : "")"
      + (file.fallback.map { ": \($0)" } ?? "") + (then.map { "; \($0)" } ?? "") + ")"
  }

  /// A file's bytes, refused by name when it is missing or too large to attach.
  static func contents(of path: String) throws -> Data {
    let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
    guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int else {
      throw ValidationError("\(path): no such file")
    }
    guard size <= Engine.attachmentByteLimit else {
      throw AttachmentError.tooLarge(name: url.lastPathComponent, bytes: size, limit: Engine.attachmentByteLimit)
    }
    return try Data(contentsOf: url)
  }

  private func promptText() throws -> String {
    if let prompt { return prompt }
    guard isatty(STDIN_FILENO) == 0 else { throw ValidationError("give a PROMPT or pipe one to standard input") }
    let data = FileHandle.standardInput.readDataToEndOfFile()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw ValidationError("the prompt on standard input is empty") }
    return text
  }
}

/// An answer that failed after it was saved; its error is the message.
struct AskFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// The `--json` output of `hearth ask`.
struct AskReport: Encodable {
  var text: String
  var stopReason: String
  var promptTokens: Int
  var reusedPromptTokens: Int
  var generatedTokens: Int
  var timeToFirstTokenMs: Double?
  var promptTokensPerSecond: Double
  var generationTokensPerSecond: Double
  var loadMs: Double
  var model: String
  var sessionId: String?
  /// `local` or `remote`: which model answered.
  var provider: String?
  var thinking: String?
  var state: String?
  /// The notes, documents and past chats the answer drew on.
  var sources: [Citation]?
  var actions: [ActionRecord]?

  init(text: String, stopReason: StopReason, usage: GenerationUsage?, model: String, loadTime: Duration) {
    self.text = text
    self.stopReason = stopReason.rawValue
    self.promptTokens = usage?.promptTokens ?? 0
    self.reusedPromptTokens = usage?.reusedPromptTokens ?? 0
    self.generatedTokens = usage?.generatedTokens ?? 0
    self.timeToFirstTokenMs = usage?.timeToFirstToken?.milliseconds
    self.promptTokensPerSecond = usage?.prefillTokensPerSecond ?? 0
    self.generationTokensPerSecond = usage?.generationTokensPerSecond ?? 0
    self.loadMs = loadTime.milliseconds
    self.model = model
  }

}

extension ProviderPreference: ExpressibleByArgument {}
