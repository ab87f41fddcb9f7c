import Foundation
import HearthCore

/// Asks the model itself for a summary of turns that no longer fit the context. Runs only when the
/// conversation is trimmed, which re-evaluates the whole prompt anyway, and the result is cached on the
/// session. Any failure returns `nil` and the caller keeps the extractive summary.
enum ModelSummary {
  static func summarize(_ dropped: [ChatMessage], limit: Int, model: any ChatModel) async -> String? {
    var transcript = dropped.map { "\($0.role.rawValue.capitalized): \($0.content)" }.joined(separator: "\n")
    let answerTokens = 96
    var prompt = request(transcript)
    // Keep the most recent part of the transcript that fits the window.
    for _ in 0..<6 {
      guard let tokens = try? model.countTokens(prompt) else { return nil }
      if tokens + answerTokens <= model.contextSize { break }
      transcript = String(transcript.suffix(transcript.count / 2))
      prompt = request(transcript)
    }
    guard let tokens = try? model.countTokens(prompt), tokens + answerTokens <= model.contextSize else { return nil }

    var splitter = ThinkSplitter()
    var summary = ""
    do {
      let options = GenerationOptions(maxNewTokens: answerTokens, sampling: .greedy)
      let whole = try await model.wholeAnswer(to: prompt, options: options)
      let segments = splitter.feed(whole)
      for case .answer(let text) in segments + splitter.finish() { summary += text }
    } catch {
      return nil
    }
    let cleaned = summary.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else { return nil }
    return cleaned.count <= limit ? cleaned : String(cleaned.prefix(limit - 1)) + "…"
  }

  private static func request(_ transcript: String) -> [ChatMessage] {
    [
      .system("You write short, factual summaries of conversations."),
      .user(
        "Summarise this conversation in at most three sentences. Keep names, numbers, dates and decisions.\n\n"
          + transcript),
    ]
  }
}
