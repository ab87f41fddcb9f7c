public import HearthCore
import HearthMemory

/// An answer that is not kept as a session (`hearth ask --no-save`): what it said, why it ended, its figures,
/// and what it drew on and did.
public struct UnsavedAnswer: Sendable {
  public var text: String
  public var stopReason: StopReason
  public var usage: GenerationUsage?
  /// The notes, documents and past chats it drew on, when memory was used.
  public var sources: [Citation]?
  /// What its action blocks did; logged without a session.
  public var actions: [ActionRecord]
  /// The answer as generated stated what the data does not hold, and `text` is what stands instead (see
  /// ``ChatEvent/replaced(_:)``): the caller shows it in place of what it heard.
  public var replaced = false
}

extension Engine {
  /// Answers `text` without storing the exchange: the same system prompt and memory a saved turn gets, the
  /// model held in line like any turn, and actions run only for an answer that ended by itself. `onText`
  /// hears the answer as it is generated (action blocks included; the caller decides what to show); when it
  /// throws, the answer stops there and the error is rethrown.
  /// - Throws: ``ChatError/modelNotReady`` without a model; the model's or the store's errors.
  public func runUnsavedTurn(
    _ text: String, systemPrompt custom: String? = nil, options: GenerationOptions, usesMemory: Bool = true,
    onText: (String) async throws -> Void
  ) async throws -> UnsavedAnswer {
    let parts = systemPromptParts(custom: try custom ?? chatSettings().systemPrompt)
    var options = options
    options.reusablePrefix = parts.reusablePrefix
    return try await withModel { local in
      let answering = self.answering ?? local
      // The loaded model itself, so that the memory's budget is counted in its tokens.
      let counting: any ChatModel = self.model ?? local
      let memory = usesMemory ? await self.memory.context(for: text, session: nil, for: counting) : nil
      let messages: [ChatMessage] = [.system(parts.text), .user(MemoryPrompt.question(text, with: memory))]
      var answer = UnsavedAnswer(text: "", stopReason: .endOfGeneration, sources: memory?.citations, actions: [])
      for try await event in answering.generate(messages: messages, options: actionConstrained(options)) {
        switch event {
        case .token(let piece):
          answer.text += piece
          try await onText(piece)
        case .usage(let figures): answer.usage = figures
        case .done(let reason): answer.stopReason = reason
        case .logprob, .promptProgress: break
        }
      }
      // Unsaved answers act too (their actions are logged without a session), but only whole ones.
      if actsOnAnswers, answer.stopReason == .endOfGeneration {
        answer.actions = try await actions.process(answer: answer.text, userText: text, read: memory?.text)
      }
      // The same check as every kept answer's: nothing about the user's data that no record read holds. A
      // stopped answer is left as it stopped, as a kept one is.
      if actsOnAnswers, [.endOfGeneration, .maxTokens, .contextFull].contains(answer.stopReason) {
        let turn = AnswerToCheck(
          request: text, answer: answer.text, records: answer.actions, memory: memory?.text, earlier: "", message: nil)
        if let checked = await self.answerGuard.check(turn, model: answering) {
          answer.text = checked.text
          answer.actions += checked.records
          answer.replaced = true
        }
      }
      return answer
    }
  }
}
