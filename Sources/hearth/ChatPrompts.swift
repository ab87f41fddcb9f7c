import Foundation
import HearthEngine

extension ChatCommand {
  /// `/p NAME [MORE]`: the pinned prompt's text (with MORE on a line after it); `/p` alone lists them and sends
  /// nothing.
  static func pinned(_ argument: String, engine: Engine) throws -> String? {
    let prompts = try engine.pinnedPrompts()
    guard !argument.isEmpty else {
      Terminal.write(
        prompts.isEmpty
          ? "No pinned prompts (hearth prompts add NAME TEXT).\n"
          : prompts.map { "  \($0.name): \($0.text.prefix(80))" }.joined(separator: "\n") + "\n")
      return nil
    }
    // The longest name the argument starts with, so names with spaces work.
    let lowered = argument.lowercased()
    let match = prompts.filter { lowered == $0.name.lowercased() || lowered.hasPrefix($0.name.lowercased() + " ") }
      .max { $0.name.count < $1.name.count }
    guard let prompt = match else { return try engine.pinnedPrompt(argument).text }
    let more = argument.dropFirst(prompt.name.count).trimmingCharacters(in: .whitespaces)
    return more.isEmpty ? prompt.text : prompt.text + "\n" + more
  }
}
