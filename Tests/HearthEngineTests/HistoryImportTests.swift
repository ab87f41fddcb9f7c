import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("Histories from other assistants, imported into chats with their versions", .heavy)
struct HistoryImportTests {
  static let fixtures = TestModels.packageRoot.appendingPathComponent("Tests/HearthInterchangeTests/Fixtures")

  private func engine() throws -> Engine {
    try Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]),
      answering: ScriptedChatModel(pieces: ["Fine."]))
  }

  /// The fixture inside a zip archive made by `zip`, in a folder as exports put it.
  static func zipped(_ name: String) throws -> Data {
    let folder = try TestModels.temporaryDirectory()
    let inner = folder.appendingPathComponent("export-2026-11-27", isDirectory: true)
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent(name), to: inner.appendingPathComponent("conversations.json"))
    try Data("[]".utf8).write(to: inner.appendingPathComponent("users.json"))
    let zip = Process()
    zip.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
    zip.arguments = ["-q", "-r", "export.zip", "export-2026-11-27"]
    zip.currentDirectoryURL = folder
    try zip.run()
    zip.waitUntilExit()
    return try Data(contentsOf: folder.appendingPathComponent("export.zip"))
  }

  @Test func aChatGPTExportWithBranchesIsImportedWithTheCountsRight() async throws {
    let engine = try engine()
    let report = try await engine.importHistory(try Self.zipped("chatgpt-conversations.json"), from: .chatgpt)
    #expect(report.conversations == 2)
    #expect(report.messages == 9)
    #expect(report.versions == 2)
    #expect(report.skipped == ["image": 1, "tool output": 1, "tether browsing display": 1])
    let sessions = try engine.sessions.list(limit: 10)
    #expect(Set(sessions.map(\.title)) == ["Weekend in Lisbon", "Quick sum"])
    let lisbon = try #require(sessions.first { $0.title == "Weekend in Lisbon" })
    #expect(lisbon.id == UUID(uuidString: "6f1c2a90-1111-4a7e-9a4f-0c4d5e6f7a80"))
    #expect(try engine.sessions.messages(in: lisbon.id).last?.content == "The Gulbenkian is worth a morning.")
    // The other branches are versions, switched to as any other.
    let forks = try engine.sessions.forks(in: lisbon.id)
    #expect(forks.map(\.position) == [1, 2])
    let food = try await engine.chat.showAlternative(0, at: 2, in: lisbon.id)
    #expect(food.suffix(2).map(\.content) == ["What about food?", "Try the custard tarts in Belém."])

    // Imported again: nothing doubles.
    let again = try await engine.importHistory(
      try Data(contentsOf: Self.fixtures.appendingPathComponent("chatgpt-conversations.json")), from: .chatgpt)
    #expect(again.conversations == 0)
    #expect(again.alreadyImported == 2)
    #expect(try engine.sessions.list(limit: 10).count == 2)
  }

  @Test func aClaudeExportIsImportedWithItsBranch() async throws {
    let engine = try engine()
    let report = try await engine.importHistory(
      try Data(contentsOf: Self.fixtures.appendingPathComponent("claude-conversations.json")), from: .claude)
    #expect(report.conversations == 2)
    #expect(report.messages == 9)
    #expect(report.versions == 1)
    #expect(report.skipped == ["attachment": 1, "thinking": 1])
    let poem = try #require(try engine.sessions.list(limit: 10).first { $0.title == "A poem" })
    #expect(try engine.sessions.forks(in: poem.id).map(\.position) == [1])
    #expect(try engine.sessions.messages(in: poem.id).map(\.role) == [.user, .assistant, .user, .assistant])
  }

  @Test func anArchiveWithoutTheFileOrAnotherFileIsRefusedByName() async throws {
    let engine = try engine()
    await #expect(throws: HistoryImportError.self) {
      _ = try await engine.importHistory(Data([0x50, 0x4B, 0x03, 0x04, 0, 0, 0]), from: .chatgpt)
    }
    await #expect(throws: (any Error).self) {
      _ = try await engine.importHistory(Data("BEGIN:VCARD".utf8), from: .claude)
    }
    #expect(try engine.sessions.list(limit: 10).isEmpty)
  }
}
