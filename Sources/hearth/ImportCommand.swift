public import ArgumentParser
import Foundation
public import HearthEngine

/// `hearth import chatgpt|claude FILE`: another assistant's history, as chats.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Bring your chats from ChatGPT or Claude into Hearth.",
    discussion: """
      Give the export as it came (the .zip, or the conversations.json in it). Each conversation becomes a chat: \
      the branch you last saw is the chat, every other branch a version at its fork (/versions in hearth chat, \
      ‹ › in the web app). Importing the same export again leaves the chats already there as they are.
      """)

  @Argument(help: "chatgpt or claude.") var assistant: AssistantHistory
  @Argument(help: "The export: .zip or conversations.json.", completion: .file()) var file: String
  @Flag(name: .long, help: "Add the chats to the memory too.") var memory = false
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let url = URL(fileURLWithPath: file)
      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
      guard size <= Engine.historyLimit else { throw HistoryImportError.tooLarge(limit: Engine.historyLimit) }
      let data = try Data(contentsOf: url)
      let report = try await Engine.openProfile().importHistory(data, from: assistant, remember: memory)
      if json { return Terminal.write(try JSONOutput.encode(report) + "\n") }
      Terminal.write(Self.describe(report, from: assistant) + "\n")
    }
  }

  static func describe(_ report: HistoryImportReport, from assistant: AssistantHistory) -> String {
    var lines = [
      "Imported \(report.conversations) chat\(report.conversations == 1 ? "" : "s") from \(assistant.displayName): "
        + "\(report.messages) messages, \(report.versions) other version\(report.versions == 1 ? "" : "s") kept."
    ]
    if report.alreadyImported > 0 { lines.append("\(report.alreadyImported) already imported, left as they were.") }
    if !report.skipped.isEmpty {
      let parts = report.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
      lines.append("Not kept: " + parts.joined(separator: ", ") + ".")
    }
    if report.remembered > 0 { lines.append("\(report.remembered) added to the memory.") }
    return lines.joined(separator: "\n")
  }
}

extension AssistantHistory: ExpressibleByArgument {}
