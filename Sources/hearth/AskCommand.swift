import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import LlamaKit

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

  @OptionGroup var modelOptions: ModelOptionGroup
  @OptionGroup var samplingOptions: SamplingOptionGroup

  func run() async throws {
    try await reportingFailures {
      let options = try samplingOptions.generationOptions()
      let text = try promptText()
      let (session, loadTime) = try await modelOptions.loadSession()
      var messages: [ChatMessage] = []
      if let system { messages.append(.system(system)) }
      messages.append(.user(text))

      var answer = ""
      var usage: GenerationUsage?
      var stopReason = StopReason.endOfGeneration
      for try await event in session.respond(to: messages, options: options) {
        switch event {
        case .token(let piece):
          answer += piece
          if !json { Terminal.write(piece) }
        case .usage(let figures): usage = figures
        case .done(let reason): stopReason = reason
        }
      }
      if json {
        let report = AskReport(
          text: answer, stopReason: stopReason, usage: usage, model: session.model.path, loadTime: loadTime)
        Terminal.write(try report.encoded() + "\n")
      } else {
        Terminal.write("\n")
        if let notice = stopReason.notice { Terminal.writeError(notice + "\n") }
      }
    }
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

  func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
