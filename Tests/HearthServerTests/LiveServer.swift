import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
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

/// The real server on a free loopback port, with the real tiny model and a fresh profile, for one test.
struct LiveServer {
  let port: Int
  let database: HearthDatabase
  let configuration: ServerConfiguration
  var base: String { "http://127.0.0.1:\(port)" }

  private static let model = Task { try await LlamaModel.load(path: TestModels.smolLM2) }

  /// One session (one KV cache) shared by the tests, as one server shares it among its requests.
  private static let session = Task {
    try await LlamaSession.create(model: try await model.value, options: ContextOptions(contextSize: 2048, threads: 2))
  }

  /// The model session every test server runs on.
  static func sharedSession() async throws -> LlamaSession { try await session.value }

  /// Runs `body` against a server started for it and stopped after it.
  static func with<Value: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0), withModel: Bool = true,
    settings: ChatSettings = ChatSettings(preset: .precise, maxTokens: 48),
    _ body: @Sendable (LiveServer) async throws -> Value
  ) async throws -> Value {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try HearthDatabase(path: folder.appendingPathComponent("hearth.sqlite").path)
    try database.setSetting("chat", to: settings)
    let model: LocalChatModel? = withModel ? LocalChatModel(session: try await session.value) : nil
    let chat = ChatService(
      database: database, model: model,
      configuration: ChatConfiguration(generation: settings.generationOptions, summarizesWithModel: false))
    var logger = Logger(label: "hearth.server.test")
    logger.logLevel = .warning
    let dependencies = ServerDependencies(
      database: database, chat: chat, model: model, modelPath: withModel ? TestModels.smolLM2 : nil,
      modelsFolder: URL(fileURLWithPath: TestModels.directory), defaultSystemPrompt: { "You are a helpful assistant." },
      logger: logger)
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
      // Nothing may still run on the shared model when the next test starts.
      await (try? await session.value)?.waitUntilIdle()
      return try outcome.get()
    }
  }

  // MARK: Requests

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
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
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
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
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
