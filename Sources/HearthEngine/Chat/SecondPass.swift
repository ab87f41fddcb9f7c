import Foundation
import HearthCore
import HearthStore
import Logging

/// The answer to a question a block asked of the user's data or of a tool. A model trusted to write from facts
/// (``ChatModel/writesFromFacts()``: a local one of at least a billion weights, or a remote server the user
/// counts as capable) gets the second pass: the facts found, and the question to answer from them alone; when
/// tools are offered it may call another, read its result and go on, up to ``maximumSteps`` passes. A smaller
/// one answers with the facts as they are: the default 135M model, given the facts, invented others (a phone
/// number when no contact matched), and a wrong answer about the user's own data is worse than a plain list.
/// A remote pass that fails before its first token is not handed to such a model: the facts are shown instead.
/// The facts are data either way: a block copied from them never runs, and after reading them nothing runs on
/// the answer's word alone but a tool that only reads and that the user lets run. The answer check reads the
/// pass's words against the records like any answer's.
struct SecondPass {
  /// The most passes one answer makes, the last without tools.
  static let maximumSteps = 4

  let database: HearthDatabase
  let model: any ChatModel
  let events: AsyncStream<ChatEvent>.Continuation
  let now: @Sendable () -> Date
  let logger: Logger
  /// How to call the tools offered (their list, the grammar of calls and its trigger); `nil` when none are.
  var tools: (instructions: String, grammar: String, trigger: String)? = nil
  /// Runs the blocks a later pass wrote, given the facts read before it; their records join the answer's.
  var step: (@Sendable (String, [String]) async -> [ActionRecord])? = nil
  /// What is left of the turn's time limit when the pass starts; `nil` when it has none. A pass cut by it keeps
  /// what it wrote, and the answer is marked timed out.
  var timeLeft: Duration? = nil

  /// The answer with the facts (or the model's words from them) added, and the records of what later passes
  /// called.
  func answer(
    _ question: String, facts: [String], into message: StoredMessage
  ) async -> (StoredMessage, [ActionRecord]) {
    // What the data holds is shown and read as data: nothing in it opens a block, now or when the answer is
    // continued or exported.
    var facts = facts.map(ActionBlockParser.defused)
    var message = message
    var records: [ActionRecord] = []
    var written: [String] = []
    let clock = ContinuousClock()
    let started = clock.now
    var outOfTime = false
    if await model.writesFromFacts(), timeLeft.map({ $0 > .zero }) ?? true {
      for pass in 1...Self.maximumSteps {
        let calls = pass < Self.maximumSteps ? tools : nil
        let left = timeLeft.map { $0 - (clock.now - started) }
        if let left, left <= .zero {
          outOfTime = true
          break
        }
        let (text, stop) = await generated(question, facts: facts, tools: calls, timeLeft: left)
        outOfTime = stop == .timeout
        guard !text.isEmpty else { break }
        written.append(text)
        guard !outOfTime, calls != nil, let step, !ActionBlockParser.parse(text).blocks.isEmpty, !Task.isCancelled
        else { break }
        let found = await step(text, facts)
        records += found
        let results = found.filter { $0.state == .answered }.compactMap(\.result).map(ActionBlockParser.defused)
        // Nothing new to read (the call waits, failed or was refused): its card says the rest.
        if results.isEmpty { break }
        facts += results
      }
    }
    if written.isEmpty {
      let text = Self.found(facts)
      events.yield(.answer("\n\n" + text))
      written = [text]
    }
    message.content += "\n\n" + written.joined(separator: "\n\n")
    if outOfTime {
      message.state = .timedOut
      message.stopReason = .timeout
    }
    message.updatedAt = now()
    _ = logger.attempt("saving the answer from the facts found") { try database.updateMessage(message) }
    return (message, records)
  }

  /// The facts a look-up found, as an answer shows them when no model writes one: data, so any block in them is
  /// defused.
  static func found(_ facts: [String]) -> String {
    "Here is what I found:\n" + facts.map(ActionBlockParser.defused).joined(separator: "\n")
  }

  /// The model's answer from the facts, streamed as it is written, and why it ended; empty when the generation
  /// fails.
  private func generated(
    _ question: String, facts: [String], tools: (instructions: String, grammar: String, trigger: String)?,
    timeLeft: Duration?
  ) async -> (String, StopReason?) {
    var system =
      "You are Hearth, the user's assistant. Facts from the user's own data and tools:\n"
      + facts.joined(separator: "\n")
      + "\nAnswer the user's question in one or two sentences from these facts only; if they do not answer it,"
      + " say so."
    var options = GenerationOptions(maxNewTokens: 200, sampling: .greedy)
    options.needsCapableModel = true
    options.timeout = timeLeft
    if let tools {
      system += " If a tool would find what is missing, call it instead.\n" + tools.instructions
      options.grammar = tools.grammar
      options.grammarTrigger = tools.trigger
    }
    var text = ""
    var stop: StopReason?
    do {
      for try await event in model.generate(messages: [.system(system), .user(question)], options: options) {
        if case .done(let reason) = event { stop = reason }
        guard case .token(let piece) = event else { continue }
        events.yield(.answer(text.isEmpty ? "\n\n" + piece : piece))
        text += piece
      }
    } catch {
      // The facts stand in for an answer that could not be written.
    }
    await model.settle()
    return (text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : text, stop)
  }
}
