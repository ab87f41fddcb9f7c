import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthStore
import HearthTestSupport
import Hummingbird
import LlamaKit
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

@testable import HearthEngine

/// The real server on a free loopback port, with the real tiny model and a fresh profile, for one test.
struct LiveServer {
  let port: Int
  let database: HearthDatabase
  let configuration: ServerConfiguration
  var base: String { "http://127.0.0.1:\(port)" }

  /// One model (one KV cache) shared by the tests' engines, as one server shares it among its requests.
  private static let model = Task {
    try await LocalModel.load(LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: 2))
  }

  /// The llama.cpp session under the shared model, for checks of how its generations ended.
  static func sharedSession() async throws -> LlamaSession { try await model.value.session }

  /// Runs `body` against a server started for it and stopped after it.
  static func with<Value: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0), withModel: Bool = true,
    settings: ChatSettings = ChatSettings(preset: .precise, maxTokens: 48),
    _ body: @Sendable (LiveServer) async throws -> Value
  ) async throws -> Value {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A scratch profile whose models folder is the test models' cache, opened as `hearth serve` opens one.
    var engineConfiguration = EngineConfiguration(
      paths: HearthPaths(home: folder, models: URL(fileURLWithPath: TestModels.directory)), environment: [:])
    engineConfiguration.chat = ChatConfiguration(generation: settings.generationOptions, summarizesWithModel: false)
    let engine = try Engine.open(engineConfiguration, model: withModel ? try await model.value : nil)
    try engine.setChatSettings(settings)
    // The test's own handle on the same database, for seeding and checking what the server stored.
    let database = try HearthDatabase(path: engine.paths.database.path)
    var logger = Logger(label: "hearth.server.test")
    logger.logLevel = .warning
    let dependencies = ServerDependencies(engine: engine, logger: logger)
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = try buildApplication(configuration: configuration, dependencies: dependencies) { port in
      portContinuation.yield(port)
      portContinuation.finish()
    }
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let outcome: Result<Value, any Error>
      if let port = await ports.first(where: { _ in true }) {
        let server = LiveServer(port: port, database: database, configuration: configuration)
        do { outcome = .success(try await body(server)) } catch { outcome = .failure(error) }
      } else {
        outcome = .failure(CancellationError())
      }
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
      return try outcome.get()
    }
  }

  // MARK: Requests

  /// A client with room for as many connections as the tests open at once (the shared client's pool
  /// holds 8 per host, too few for a burst of waiting requests plus the `/stop` calls that free them).
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  struct Reply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: String
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)) }
  }

  func request(
    _ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []
  ) async throws -> Reply {
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if body != nil { request.headers.add(name: "Content-Type", value: "application/json") }
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await Self.client.execute(request, timeout: .seconds(120))
    let bytes = try await response.body.collect(upTo: 16 << 20)
    return Reply(
      status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
      body: String(buffer: bytes))
  }

  /// The body of a streamed response as it arrives: each element is one network read, with when it came.
  func stream(
    _ path: String, body: String, headers: [(String, String)] = []
  ) async throws -> (status: Int, chunks: HTTPClientResponse.Body) {
    var request = HTTPClientRequest(url: base + path)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await Self.client.execute(request, timeout: .seconds(120))
    return (Int(response.status.code), response.body)
  }
}

/// Server-sent events parsed from chunks as they arrive.
struct EventParser {
  private var buffer = ""

  struct Event: Sendable {
    var name: String?
    var data: String
  }

  mutating func feed(_ text: String) -> [Event] {
    buffer += text
    var events: [Event] = []
    while let range = buffer.range(of: "\n\n") {
      let block = buffer[..<range.lowerBound]
      buffer = String(buffer[range.upperBound...])
      var name: String?
      var data: [String] = []
      for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
        if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
      }
      if !data.isEmpty { events.append(Event(name: name, data: data.joined(separator: "\n"))) }
    }
    return events
  }
}
