import Foundation

extension SessionExport {
  /// The session as Markdown, for reading and sharing.
  public var markdown: String {
    let session = self.session
    let created = ISO8601DateFormatter().string(from: session.createdAt)
    var text = "# \(session.title)\n\n"
    text += "_Session \(session.id.uuidString) · created \(created)"
    text += (session.model.map { " · \($0)" } ?? "") + (session.isPinned ? " · pinned" : "") + "_\n"
    let forks = Dictionary(uniqueKeysWithValues: branches.forks.map { ($0.position, $0) })
    for message in messages {
      text += "\n## \(message.role.rawValue.capitalized)"
      if message.state != .complete { text += " (\(message.state.rawValue))" }
      text += "\n\n"
      if let fork = forks[message.index] {
        text += "_Version \(fork.current + 1) of \(fork.count) from here on; the JSON export keeps them all._\n\n"
      }
      if !message.thinking.isEmpty {
        text += "<details><summary>Thinking</summary>\n\n\(message.thinking)\n\n</details>\n\n"
      }
      text += message.content + "\n"
      if let error = message.error { text += "\n> Error: \(error)\n" }
    }
    return text
  }
}
