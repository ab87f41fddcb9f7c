import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import LlamaKit
import Synchronization

struct ChatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: "Chat interactively; Ctrl-C stops the current answer, /quit leaves.",
    discussion: "Commands: /new (forget the conversation), /stats (last answer's figures), /help, /quit."
  )

  @Option(name: .long, help: "System prompt.")
  var system: String?

  @OptionGroup var modelOptions: ModelOptionGroup
  @OptionGroup var samplingOptions: SamplingOptionGroup

  func run() async throws {
    try await reportingFailures {
      let options = try samplingOptions.generationOptions()
      let (session, loadTime) = try await modelOptions.loadSession()
      let conversation = Conversation(session: session, systemPrompt: system)
      let meta = session.model.metadata
      Terminal.write(
        Terminal.dim(
          "\(meta.name) · \(meta.architecture) · context \(session.contextSize) · loaded in \(Int(loadTime.milliseconds)) ms\n"
            + "Type a message; /help for commands.\n"))
      let current = Mutex<Task<GenerationUsage?, Never>?>(nil)
      let interrupts = InterruptHandler {
        let running = current.withLock { $0 }
        if let running {
          running.cancel()
        } else {
          Terminal.write("\n")
          Foundation.exit(0)
        }
      }
      defer { withExtendedLifetime(interrupts) {} }
      var lastUsage: GenerationUsage?

      Terminal.write("> ")
      for await line in LineReader.lines() {
        let input = line.trimmingCharacters(in: .whitespaces)
        switch input {
        case "": break
        case "/quit", "/exit": return
        case "/help": Terminal.write(Self.configuration.discussion + "\n")
        case "/new":
          conversation.reset()
          Terminal.write(Terminal.dim("(new conversation)\n"))
        case "/stats": Terminal.write(Self.describe(lastUsage, session: session) + "\n")
        default:
          let turn = Task {
            await Self.answer(input, conversation: conversation, options: options)
          }
          current.withLock { $0 = turn }
          lastUsage = await turn.value
          current.withLock { $0 = nil }
        }
        Terminal.write("> ")
      }
      Terminal.write("\n")
    }
  }

  private static func answer(
    _ input: String, conversation: Conversation, options: GenerationOptions
  ) async
    -> GenerationUsage?
  {
    var usage: GenerationUsage?
    var stopReason = StopReason.cancelled
    do {
      for try await event in conversation.send(input, options: options) {
        switch event {
        case .token(let piece): Terminal.write(piece)
        case .usage(let figures): usage = figures
        case .done(let reason): stopReason = reason
        }
      }
    } catch is CancellationError {
      stopReason = .cancelled
    } catch {
      Terminal.write("\n")
      Terminal.writeError("hearth: \(error)\n")
      return nil
    }
    Terminal.write("\n")
    if let notice = stopReason.notice { Terminal.write(Terminal.dim(notice) + "\n") }
    if usage == nil {
      // A stopped answer ends before its figures arrive; the session still recorded them.
      await conversation.session.waitUntilIdle()
      usage = conversation.session.lastRecord?.usage
    }
    return usage
  }

  private static func describe(_ usage: GenerationUsage?, session: LlamaSession) -> String {
    guard let usage else { return "no answer yet" }
    let ttft = usage.timeToFirstToken.map { String(format: "%.0f ms", $0.milliseconds) } ?? "-"
    let prompt = String(
      format: "prompt %d tokens (%d reused, %d evaluated, %.0f t/s)", usage.promptTokens,
      usage.reusedPromptTokens, usage.prefilledTokens, usage.prefillTokensPerSecond)
    let generation = String(
      format: "generated %d tokens (%.1f t/s)", usage.generatedTokens, usage.generationTokensPerSecond)
    return "\(prompt) · \(generation) · first token \(ttft) · context \(session.contextSize)"
  }
}
