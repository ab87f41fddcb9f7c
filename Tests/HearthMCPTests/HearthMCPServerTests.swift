import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Logging
import MCP
import Testing

@testable import HearthMCP

@Suite("Hearth as an MCP server: its tools, and consent for what other assistants ask")
struct HearthMCPServerTests {
  /// An engine on a scratch profile with one event on 2026-11-27, and an MCP client connected to Hearth's
  /// server over an in-memory pair of transports (the same server `hearth mcp` runs on stdio).
  private func connected(
    allowsCreations: Bool = false, _ body: (Engine, Client) async throws -> Void
  ) async throws {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = EngineConfiguration(paths: HearthPaths(home: folder), environment: [:])
    configuration.timeZone = TimeZone(identifier: "Europe/Paris")!
    let engine = try await Engine.open(configuration)
    try engine.setMCPSettings(MCPSettings(allowsCreations: allowsCreations))
    _ = try engine.calendar.create(
      CalendarEvent(
        title: "Dentist", start: LocalDateTime(parsing: "2026-11-27T09:00")!,
        end: LocalDateTime(parsing: "2026-11-27T10:00")!))
    let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
    var logger = Logger(label: "hearth.mcp.test")
    logger.logLevel = .critical
    let server = try await HearthMCPServer(engine: engine, logger: logger).start(on: serverSide)
    let client = Client(name: "test-assistant", version: "1.0")
    _ = try await client.connect(transport: clientSide)
    do {
      try await body(engine, client)
    } catch {
      await client.disconnect()
      await server.stop()
      throw error
    }
    await client.disconnect()
    await server.stop()
  }

  private func text(_ content: [Tool.Content]) -> String {
    content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
  }

  @Test func theToolsAreTheActionsOfEachKindAndMemoryWithHintsOfWhatTheyDo() async throws {
    let names = HearthTool.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(!names.contains { $0.hasPrefix("web") })
    for name in ["calendar_query", "calendar_free", "calendar_create", "calendar_update", "calendar_delete"] {
      #expect(names.contains(name), "\(name)")
    }
    let create = try #require(HearthTool.named("calendar_create"))
    #expect(create.inputSchema["properties"]?["action"] == nil)
    #expect(create.inputSchema["properties"]?["title"] != nil)
    #expect(create.inputSchema["required"] == .array([.string("title"), .string("start")]))
    #expect(HearthTool.named("calendar_query")?.readsOnly == true)
    #expect(HearthTool.named("calendar_delete")?.isDestructive == true)
    #expect(HearthTool.named("memory_search")?.readsOnly == true)
  }

  @Test func readsAnswerAtOnceAndAChangeWaitsForTheUserWithItsSource() async throws {
    try await connected { engine, client in
      let (tools, _) = try await client.listTools()
      #expect(tools.count == HearthTool.all.count)
      #expect(tools.first { $0.name == "calendar_query" }?.annotations.readOnlyHint == true)

      let read = try await client.callTool(
        name: "calendar_query", arguments: ["from": .string("2026-11-27"), "to": .string("2026-11-27")])
      #expect(read.isError != true)
      #expect(text(read.content).contains("Dentist"))

      let asked = try await client.callTool(
        name: "calendar_create",
        arguments: [
          "title": .string("Lunch with Priya"), "start": .string("2026-11-27T12:30"),
          "end": .string("2026-11-27T13:30"),
        ])
      #expect(asked.isError != true)
      #expect(text(asked.content).hasPrefix("Pending"))
      // Nothing happened yet: the calendar still holds only the dentist.
      #expect(try engine.calendar.events().map(\.title) == ["Dentist"])
      let waiting = try engine.actions.log(state: .pending)
      #expect(waiting.count == 1)
      #expect(waiting.first?.source == "mcp: test-assistant")
      let confirmed = try await engine.actions.confirm(try #require(waiting.first).id)
      #expect(confirmed.state == .created)
      #expect(try engine.calendar.events().map(\.title).sorted() == ["Dentist", "Lunch with Priya"])

      let deletion = try await client.callTool(name: "calendar_delete", arguments: ["title": .string("Dentist")])
      #expect(text(deletion.content).hasPrefix("Pending"))
      #expect(try engine.calendar.events().count == 2)
    }
  }

  @Test func aProfileThatAllowsCreationsRunsThemAtOnceAndUndoably() async throws {
    try await connected(allowsCreations: true) { engine, client in
      let created = try await client.callTool(
        name: "reminders_create", arguments: ["title": .string("Buy stamps"), "due": .string("2026-11-28")])
      #expect(text(created.content).hasPrefix("Done"))
      let record = try #require(try engine.actions.log().first)
      #expect(record.state == .created && record.source == "mcp: test-assistant")
      #expect(try engine.reminders.list(list: nil, includeCompleted: false).map(\.title) == ["Buy stamps"])
      _ = try engine.actions.undo(record.id)
      #expect(try engine.reminders.list(list: nil, includeCompleted: false).isEmpty)
      // Changes still wait.
      let change = try await client.callTool(name: "calendar_delete", arguments: ["title": .string("Dentist")])
      #expect(text(change.content).hasPrefix("Pending"))
    }
  }

  @Test func badCallsAreClearErrorsThatChangeNothing() async throws {
    try await connected { engine, client in
      let unknownField = try await client.callTool(
        name: "calendar_create",
        arguments: ["title": .string("X"), "start": .string("2026-11-27T12:00"), "colour": .string("red")])
      #expect(unknownField.isError == true)
      #expect(text(unknownField.content).contains("colour"))
      let badDate = try await client.callTool(
        name: "calendar_create", arguments: ["title": .string("X"), "start": .string("next blursday")])
      #expect(badDate.isError == true)
      #expect(text(badDate.content).contains("start"))
      let noTarget = try await client.callTool(
        name: "calendar_delete", arguments: ["title": .string("Nothing like it")])
      #expect(noTarget.isError == true)
      let badSearch = try await client.callTool(
        name: "memory_search", arguments: ["query": .string("x"), "k": .int(3)])
      #expect(badSearch.isError == true)
      #expect(text(badSearch.content).contains("k"))
      await #expect(throws: MCPError.self) { _ = try await client.callTool(name: "calendar_destroy", arguments: [:]) }
      #expect(try engine.calendar.events().map(\.title) == ["Dentist"])
      #expect(try engine.actions.log(state: .pending).isEmpty)
    }
  }
}
