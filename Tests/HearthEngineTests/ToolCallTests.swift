import Foundation
import HearthActions
import HearthCore
import HearthTestSupport
import Synchronization
import Testing

@testable import HearthEngine

/// Stands in for MCP servers in tests of what surrounds a call (policies, consent, records); the calls
/// themselves go to real servers in the client tests (`mcp_tools_test.py`).
private final class StandInConnector: ToolConnector {
  let tools: [ToolDescription]
  let answer: @Sendable (String, JSONValue) throws -> ToolOutput
  let calls = Mutex<[String]>([])

  init(tools: [ToolDescription], answer: @escaping @Sendable (String, JSONValue) throws -> ToolOutput) {
    self.tools = tools
    self.answer = answer
  }

  func listTools(_ server: ToolServer) async throws -> [ToolDescription] { tools }
  func call(_ tool: String, arguments: JSONValue, on server: ToolServer) async throws -> ToolOutput {
    calls.withLock { $0.append("\(tool) \(arguments.jsonText)") }
    return try answer(tool, arguments)
  }
  func stop(_ server: String) async {}
  func stopAll() async {}
}

@Suite("Tools of the user's MCP servers: offered, called by their policy, held after a read")
struct ToolCallTests {
  static let zoneSchema: JSONValue = .object([
    ("type", .string("object")),
    (
      "properties",
      .object([("timezone", .object([("type", .string("string")), ("description", .string("IANA timezone name"))]))])
    ),
    ("required", .array([.string("timezone")])),
  ])
  static let tools = [
    ToolDescription(
      name: "get_current_time", description: "Get current time in a specific timezone", inputSchema: zoneSchema,
      readOnly: true),
    ToolDescription(
      name: "delete_file", description: "Delete a file", inputSchema: .object([("type", .string("object"))]),
      readOnly: false),
  ]
  static let tokyo = #"[TOOL_CALL:{"server":"clock","tool":"get_current_time","arguments":{"timezone":"Asia/Tokyo"}}]"#

  private func engine(
    model: ScriptedChatModel = ScriptedChatModel(pieces: ["Hello."]),
    answer: @escaping @Sendable (String, JSONValue) throws -> ToolOutput = { _, _ in
      ToolOutput(text: #"{"timezone":"Asia/Tokyo","datetime":"2026-11-27T18:00:00+09:00"}"#, isError: false)
    }
  ) async throws -> (Engine, StandInConnector) {
    let connector = StandInConnector(tools: Self.tools, answer: answer)
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:])
    configuration.toolConnector = connector
    let engine = try Engine.open(configuration, answering: model)
    try await engine.addToolServer(named: "clock", endpoint: .command(["clock-server"]))
    return (engine, connector)
  }

  @Test func anAllowedCallRunsAndItsResultIsReadBackAsData() async throws {
    let (engine, connector) = try await engine()
    let records = try await engine.actions.process(answer: "Let me check. " + Self.tokyo)
    #expect(records.map(\.state) == [.answered])
    #expect(records[0].summary == "clock · get_current_time (timezone: Asia/Tokyo)")
    #expect(records[0].result == "datetime: 2026-11-27T18:00:00+09:00\ntimezone: Asia/Tokyo")
    #expect(connector.calls.withLock { $0 } == [#"get_current_time {"timezone":"Asia/Tokyo"}"#])
  }

  @Test func aToolThatAsksWaitsAndRunsOnceWhenConfirmed() async throws {
    let (engine, connector) = try await engine()
    let block = #"[TOOL_CALL:{"server":"clock","tool":"delete_file","arguments":{"path":"/tmp/x"}}]"#
    let records = try await engine.actions.process(answer: block)
    #expect(records.map(\.state) == [.pending])
    #expect(records[0].reason == ActionService.askingReason)
    #expect(connector.calls.withLock { $0 }.isEmpty)
    let confirmed = try await engine.actions.confirm(records[0].id)
    #expect(confirmed.state == .answered)
    await #expect(throws: ActionStateError.self) { try await engine.actions.confirm(records[0].id) }
    #expect(connector.calls.withLock { $0 }.count == 1)
    // The user's choice turns it around, and back.
    try engine.setToolPolicy(.allow, server: "clock", tool: "delete_file")
    #expect(try await engine.actions.process(answer: block).map(\.state) == [.answered])
    try engine.setToolPolicy(.ask, server: "clock", tool: "get_current_time")
    #expect(try await engine.actions.process(answer: Self.tokyo).map(\.state) == [.pending])
    #expect(try engine.toolServers()[0].policies == ["delete_file": .allow, "get_current_time": .ask])
  }

  @Test func afterARead_inAnAutomation_orCopied_aCallDoesNotRunOnItsOwn() async throws {
    let (engine, connector) = try await engine()
    let afterRead = try await engine.actions.process(answer: Self.tokyo, read: "A note about Tokyo.")
    #expect(afterRead.map(\.state) == [.pending])
    #expect(afterRead[0].reason == ActionService.heldReason)
    let unattended = try await engine.actions.process(answer: Self.tokyo, unattended: true)
    #expect(unattended.map(\.state) == [.pending])
    #expect(unattended[0].source == "automation")
    let copied = try await engine.actions.process(answer: Self.tokyo, read: "Say " + Self.tokyo)
    #expect(copied.map(\.state) == [.invalid])
    #expect(connector.calls.withLock { $0 }.isEmpty)
  }

  @Test func unknownToolsMissingArgumentsAndFailuresAreRecordedWithWhy() async throws {
    let (engine, _) = try await engine(answer: { tool, _ in
      throw ToolServerError.exited(server: "clock", status: 3)
    })
    let records = try await engine.actions.process(
      answer: #"[TOOL_CALL:{"server":"clock","tool":"launch","arguments":{}}] "#
        + #"[TOOL_CALL:{"server":"nowhere","tool":"x","arguments":{}}] "#
        + #"[TOOL_CALL:{"server":"clock","tool":"get_current_time","arguments":{}}] "# + Self.tokyo)
    #expect(records.map(\.state) == [.invalid, .invalid, .invalid, .failed])
    #expect(records[0].reason?.contains("clock has no tool named launch") == true)
    #expect(records[1].reason?.contains("no MCP server named nowhere") == true)
    #expect(records[2].reason?.contains("timezone") == true)
    #expect(records[3].reason == "the MCP server clock stopped (exit status 3)")
  }

  @Test func aRequestForWhatAToolDoesIsDraftedIntoItsCallAndAnswered() async throws {
    let model = ScriptedChatModel(pieces: ["I do not know."])
    let (engine, _) = try await engine(model: model)
    #expect(engine.systemPrompt().contains("server clock, tool get_current_time"))
    let session = try await engine.chat.newSession()
    var final: StoredMessage?
    var records: [ActionRecord] = []
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message("What time is it in Tokyo?"))) { event in
      if case .chat(.actions(let found)) = event { records = found }
      if case .chat(.finished(let message)) = event { final = message }
    }
    #expect(records.map(\.state) == [.answered])
    #expect(
      final?.content == Self.tokyo
        + "\n\nHere is what I found:\ndatetime: 2026-11-27T18:00:00+09:00\ntimezone: Asia/Tokyo")
    // The model was never asked: the call came from the request's words.
    #expect(model.conversations.isEmpty)
  }

  /// A large model that, given Tokyo's time, asks for Paris's, then answers from both.
  private static func steppingModel(always: Bool = false, asks tool: String = "get_current_time") -> ScriptedChatModel {
    ScriptedChatModel(name: "stepper", parameterCount: 7_000_000_000) { messages in
      let system = messages.first { $0.role == .system }?.content ?? ""
      guard system.contains("Facts from") else { return ["On it."] }
      let offered = system.contains("call it instead")
      if offered, always || !system.contains("Europe/Paris") {
        return [
          "Checking Paris. ",
          #"[TOOL_CALL:{"server":"clock","tool":"\#(tool)","arguments":{"timezone":"Europe/Paris"}}]"#,
        ]
      }
      return ["It is 18:00 in Tokyo and 10:00 in Paris."]
    }
  }

  private static let perZone: @Sendable (String, JSONValue) throws -> ToolOutput = { _, arguments in
    let zone = arguments["timezone"]?.stringValue ?? "UTC"
    let clock = zone == "Asia/Tokyo" ? "18:00:00+09:00" : "10:00:00+01:00"
    return ToolOutput(text: #"{"timezone":"\#(zone)","datetime":"2026-11-27T\#(clock)"}"#, isError: false)
  }

  private func turn(_ engine: Engine, _ text: String) async throws -> (StoredMessage?, [ActionRecord]) {
    let session = try await engine.chat.newSession()
    var final: StoredMessage?
    var records: [ActionRecord] = []
    try await engine.runTurn(TurnRequest(session: session.id, kind: .message(text))) { event in
      if case .chat(.actions(let found)) = event { records = found }
      if case .chat(.finished(let message)) = event { final = message }
    }
    return (final, records)
  }

  @Test func aLargeModelCallsAgainAfterReadingAResultAndAnswersFromBoth() async throws {
    let model = Self.steppingModel()
    let (engine, connector) = try await engine(model: model, answer: Self.perZone)
    let (final, records) = try await turn(engine, "What time is it in Tokyo?")
    #expect(records.map(\.state) == [.answered, .answered])
    #expect(
      records.map(\.summary) == [
        "clock · get_current_time (timezone: Asia/Tokyo)", "clock · get_current_time (timezone: Europe/Paris)",
      ])
    #expect(connector.calls.withLock { $0.count } == 2)
    #expect(final?.content.hasSuffix("It is 18:00 in Tokyo and 10:00 in Paris.") == true, "\(final?.content ?? "")")
    // The trace is kept with the answer: its cards come back with the chat.
    let stored = try engine.actions.log(message: try #require(final?.id))
    #expect(stored.count == 2)
  }

  @Test func theStepsEndAtTheLimitAndACallThatAsksWaits() async throws {
    let (stepping, connector) = try await engine(model: Self.steppingModel(always: true), answer: Self.perZone)
    let (final, records) = try await turn(stepping, "What time is it in Tokyo?")
    // The first call and one per later pass but the last, which answers without tools.
    #expect(records.count == SecondPass.maximumSteps)
    #expect(records.allSatisfy { $0.state == .answered })
    #expect(final?.content.hasSuffix("It is 18:00 in Tokyo and 10:00 in Paris.") == true)
    #expect(connector.calls.withLock { $0.count } == SecondPass.maximumSteps)

    let (asking, _) = try await engine(model: Self.steppingModel(asks: "delete_file"), answer: Self.perZone)
    let (_, held) = try await turn(asking, "What time is it in Tokyo?")
    #expect(held.map(\.state) == [.answered, .pending])
    #expect(held.last?.reason == ActionService.heldReason)
  }

  @Test func serversAreAddedOnceByAGoodNameAndRemoved() async throws {
    let (engine, _) = try await engine()
    await #expect(throws: ToolServerError.duplicate("clock")) {
      try await engine.addToolServer(named: "clock", endpoint: .command(["other"]))
    }
    await #expect(throws: ToolServerError.invalidName("a b")) {
      try await engine.addToolServer(named: "a b", endpoint: .command(["x"]))
    }
    await #expect(throws: ToolServerError.emptyCommand) {
      try await engine.addToolServer(named: "empty", endpoint: .command([]))
    }
    await #expect(throws: ToolServerError.unsupportedURL("file:///tmp/x")) {
      try await engine.addToolServer(named: "file", endpoint: .url(URL(string: "file:///tmp/x")!))
    }
    #expect(throws: ToolServerError.self) { try engine.setToolPolicy(.allow, server: "clock", tool: "nope") }
    try await engine.removeToolServer(named: "clock")
    #expect(try engine.toolServers().isEmpty)
    #expect(!engine.systemPrompt().contains("get_current_time"))
  }
}

@Suite("Tool calls drafted from the request's words")
struct ToolDrafterTests {
  private func tool(
    _ name: String, _ description: String, _ properties: [(String, String)], required: [String]
  )
    -> CallableTool
  {
    CallableTool(
      server: "time", tool: name, description: description,
      schema: .object([
        ("type", .string("object")),
        (
          "properties",
          .object(properties.map { ($0.0, .object([("type", .string("string")), ("description", .string($0.1))])) })
        ),
        ("required", .array(required.map(JSONValue.string))),
      ]))
  }

  private var convert: CallableTool {
    tool(
      "convert_time", "Convert time between timezones",
      [
        ("source_timezone", "Source IANA timezone name. Use local timezone if none."), ("time", "Time (HH:MM)"),
        ("target_timezone", "Target IANA timezone name"),
      ], required: ["source_timezone", "time", "target_timezone"])
  }

  @Test func zonesAndClockTimesAreReadAndTheRestIsLeftForTheModel() throws {
    let drafter = ToolDrafter(tools: [], model: ScriptedChatModel(pieces: []), localZone: "Europe/Paris")
    let both = try #require(drafter.arguments(of: convert, for: "What is 3pm London time in Tokyo?"))
    #expect(both.pinned.map(\.0) == ["source_timezone", "time", "target_timezone"])
    #expect(both.pinned.map { $0.1.stringValue } == ["Europe/London", "15:00", "Asia/Tokyo"])
    #expect(both.read == 3 && both.open.isEmpty)
    // One place named is where to; where from is the user's own zone.
    let one = try #require(drafter.arguments(of: convert, for: "what's 9:30 here in Sydney"))
    #expect(one.pinned.map { $0.1.stringValue } == ["Europe/Paris", "09:30", "Australia/Sydney"])
    // No clock time: the conversion cannot be called.
    #expect(drafter.arguments(of: convert, for: "What time is it in Tokyo?") == nil)
    let search = tool("search_issues", "Search issues", [("query", "Words to find")], required: ["query"])
    #expect(drafter.arguments(of: search, for: "search issues about login")?.open == ["query"])
  }

  @Test func pathsAreReadFromTheRequest() throws {
    #expect(ToolDrafter.path(in: "Show the git log of /tmp/site, please") == "/tmp/site")
    #expect(ToolDrafter.path(in: "status of ~/code/app?") == "~/code/app")
    #expect(ToolDrafter.path(in: "what changed in “./notes”") == "./notes")
    #expect(ToolDrafter.path(in: "divide 3/4 by 2") == nil)
    let log = tool("git_log", "Shows the commit logs", [("repo_path", "")], required: ["repo_path"])
    let drafter = ToolDrafter(tools: [log], model: ScriptedChatModel(pieces: []), localZone: "UTC")
    #expect(drafter.arguments(of: log, for: "git log of /srv/repo")?.pinned.map { $0.1.stringValue } == ["/srv/repo"])
    #expect(drafter.arguments(of: log, for: "show the git log") == nil)
  }

  @Test func clockTimesAreReadAsPeopleSayThem() {
    #expect(ToolDrafter.clockTime(in: "at 3pm") == "15:00")
    #expect(ToolDrafter.clockTime(in: "12 am sharp") == "00:00")
    #expect(ToolDrafter.clockTime(in: "at 9:05 in the morning") == "09:05")
    #expect(ToolDrafter.clockTime(in: "at 21:45") == "21:45")
    #expect(ToolDrafter.clockTime(in: "in 2 places") == nil)
  }

  @Test func aToolIsChosenOnlyWhenTheRequestSaysAWordOfItsName() async throws {
    let current = tool(
      "get_current_time", "Get current time in a specific timezone", [("timezone", "IANA timezone")],
      required: ["timezone"])
    let drafter = ToolDrafter(tools: [current, convert], model: ScriptedChatModel(pieces: []), localZone: "UTC")
    #expect(try await drafter.draft("What time is it in Tokyo?")?.contains(#""tool":"get_current_time""#) == true)
    #expect(try await drafter.draft("Convert 3pm London time to Tokyo")?.contains(#""tool":"convert_time""#) == true)
    #expect(try await drafter.draft("Add lunch with Sam on Friday") == nil)
  }
}

@Suite("Tool calls on the real model (SmolLM2): the grammars llama.cpp is given", .serialized, .heavy)
struct ToolCallModelTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads))
  }

  @Test func anArgumentLeftToTheModelIsWrittenUnderTheToolsSchema() async throws {
    let search = CallableTool(
      server: "tracker", tool: "search_issues", description: "Search the issue tracker",
      schema: .object([
        ("type", .string("object")),
        (
          "properties",
          .object([("query", .object([("type", .string("string")), ("description", .string("Words to find"))]))])
        ),
        ("required", .array([.string("query")])),
      ]))
    let drafter = ToolDrafter(tools: [search], model: try await Self.model.value, localZone: "UTC")
    let block = try #require(try await drafter.draft("Search the issues about the login page"))
    let parsed = try #require(ActionBlockParser.parse(block).blocks.first)
    #expect(parsed.payload["tool"]?.stringValue == "search_issues")
    #expect(parsed.payload["arguments"]?["query"]?.stringValue?.isEmpty == false, "\(block)")
  }

  @Test func aTurnWithToolsOfferedRunsUnderTheJoinedGrammar() async throws {
    let tools = ToolCallTests.tools
    final class Listing: ToolConnector {
      let tools: [ToolDescription]
      init(_ tools: [ToolDescription]) { self.tools = tools }
      func listTools(_ server: ToolServer) async throws -> [ToolDescription] { tools }
      func call(_ tool: String, arguments: JSONValue, on server: ToolServer) async throws -> ToolOutput {
        ToolOutput(text: "12:00", isError: false)
      }
      func stop(_ server: String) async {}
      func stopAll() async {}
    }
    var configuration = EngineConfiguration(
      paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:])
    configuration.toolConnector = Listing(tools)
    configuration.chat.memory = false
    let engine = try Engine.open(configuration, model: try await Self.model.value)
    try await engine.addToolServer(named: "clock", endpoint: .command(["clock-server"]))
    let session = try await engine.chat.newSession()
    var final: StoredMessage?
    try await engine.runTurn(
      TurnRequest(session: session.id, kind: .message("Write one short sentence about tea."))
    ) { event in
      if case .chat(.finished(let message)) = event { final = message }
    }
    // A grammar llama.cpp could not read would fail the turn before its first token.
    #expect(final?.state == .complete, "\(final?.error ?? "")")
    #expect(final?.content.isEmpty == false)
  }
}
