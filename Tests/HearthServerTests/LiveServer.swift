import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthCore
import HearthMCP
import HearthServer
import HearthStore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import LlamaKit
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

@testable import HearthEngine

/// The server under test with a fresh profile: either live, on a free loopback port with the real tiny
/// model, for what only a real connection shows (streaming, clients that leave, the `Host` header), or in
/// process through Hummingbird's router test client, for security, validation and error-shape checks that
/// need no model. Both run the very app `hearth serve` runs, on an engine opened the same way.
struct LiveServer {
  /// The port of a live server; 0 in process.
  let port: Int
  /// The test's own handle on the profile's database, for seeding and checking what the server stored.
  let database: HearthDatabase
  let configuration: ServerConfiguration
  /// In process: the router test client requests go to.
  private let client: (any TestClientProtocol)?
  /// The engine behind the server, for tests that change its state as time would (unloading an idle model).
  let engine: Engine

  /// The origin of the app's own pages.
  var base: String { client == nil ? "http://127.0.0.1:\(port)" : "http://localhost" }

  /// One model (one KV cache) per test file, shared by that file's servers as one server shares it among
  /// its requests; suites in different files run in parallel without hearing each other's generations.
  private static let models = Mutex<[String: Task<LocalModel, any Error>]>([:])

  private static func model(for file: String) -> Task<LocalModel, any Error> {
    models.withLock { models in
      if let model = models[file] { return model }
      let model = Task {
        try await LocalModel.load(
          LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads))
      }
      models[file] = model
      return model
    }
  }

  /// The llama.cpp session under the calling file's model, for checks of how its generations ended.
  static func sharedSession(file: String = #fileID) async throws -> LlamaSession {
    try await model(for: file).value.session
  }

  /// A scratch profile whose models folder is the test models' cache, opened as `hearth serve` opens one.
  private static func openEngine(
    in folder: URL, model: LocalModel?, given: (any ChatModel)? = nil, settings: ChatSettings
  ) throws -> (Engine, HearthDatabase) {
    // The test models, linked into a models folder of the profile's own: choosing a model writes the
    // registry there, never into the shared cache.
    let models = folder.appendingPathComponent("models", isDirectory: true)
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    let files = [
      TestModels.smolLM2, TestModels.gemma3, TestModels.miniLM, TestModels.whisperTinyEn, TestModels.piperVoice,
      TestModels.piperTokens, TestModels.sileroVAD,
    ]
    for path in files {
      try FileManager.default.createSymbolicLink(
        at: models.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent),
        withDestinationURL: URL(fileURLWithPath: path))
    }
    var configuration = EngineConfiguration(paths: HearthPaths(home: folder, models: models), environment: [:])
    configuration.chat = ChatConfiguration(generation: settings.generationOptions, summarizesWithModel: false)
    configuration.toolConnector = MCPToolConnector(logsFolder: folder.appendingPathComponent("logs"))
    let engine =
      try given.map { try Engine.open(configuration, answering: $0) } ?? Engine.open(configuration, model: model)
    try engine.setChatSettings(settings)
    return (engine, try HearthDatabase(path: engine.paths.database.path))
  }

  private static var quietLogger: Logger {
    var logger = Logger(label: "hearth.server.test")
    logger.logLevel = .warning
    return logger
  }

  /// The model a server of the calling file answers with: a file of the test's own, the file's shared one, or
  /// none.
  private static func model(
    path: String?, withModel: Bool, parallel: Int = 1, file: String
  ) async throws
    -> LocalModel?
  {
    if path != nil || parallel > 1 {
      var options = LocalModelOptions(path: path ?? TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads)
      options.parallel = parallel
      return try await LocalModel.load(options)
    }
    return withModel ? try await model(for: file).value : nil
  }

  /// Runs `body` against a live server started for it and stopped after it.
  static func with<Value: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0), withModel: Bool = true,
    settings: ChatSettings = ChatSettings(preset: .precise, maxTokens: 48), modelPath: String? = nil,
    parallel: Int = 1, file: String = #fileID, _ body: @Sendable (LiveServer) async throws -> Value
  ) async throws -> Value {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = try await model(path: modelPath, withModel: withModel, parallel: parallel, file: file)
    let (engine, database) = try openEngine(in: folder, model: model, settings: settings)
    let logger = quietLogger
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = try buildApplication(
      configuration: configuration, dependencies: ServerDependencies(engine: engine, logger: logger)
    ) { port in
      portContinuation.yield(port)
      portContinuation.finish()
    }
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let outcome: Result<Value, any Error>
      if let port = await ports.first(where: { _ in true }) {
        let server = LiveServer(
          port: port, database: database, configuration: configuration, client: nil, engine: engine)
        do { outcome = .success(try await body(server)) } catch { outcome = .failure(error) }
      } else {
        outcome = .failure(CancellationError())
      }
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
      return try outcome.get()
    }
  }

  /// Runs `body` against the app in process through its router, on the calling file's real model (or a model
  /// file of the test's own): what the model's answers show — their shape, usage, logprobs, grammars, refusals —
  /// needs no socket. Streamed bodies arrive whole, so timing of chunks and clients that leave stay live.
  static func routed<Value: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0), withModel: Bool = true,
    settings: ChatSettings = ChatSettings(preset: .precise, maxTokens: 48), modelPath: String? = nil,
    file: String = #fileID, _ body: @Sendable (LiveServer) async throws -> Value
  ) async throws -> Value {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = try await model(path: modelPath, withModel: withModel, file: file)
    let (engine, database) = try openEngine(in: folder, model: model, settings: settings)
    let app = try buildApplication(
      configuration: configuration, dependencies: ServerDependencies(engine: engine, logger: quietLogger))
    defer { Task { await engine.stopToolServers() } }
    return try await app.test(.router) { client in
      try await body(
        LiveServer(port: 0, database: database, configuration: configuration, client: client, engine: engine))
    }
  }

  /// Runs `body` against the app in process (no socket), with no model or the one given (a scripted one).
  static func inProcess<Value: Sendable>(
    configuration: ServerConfiguration = ServerConfiguration(port: 0),
    settings: ChatSettings = ChatSettings(preset: .precise, maxTokens: 48), model: (any ChatModel)? = nil,
    _ body: @Sendable (LiveServer) async throws -> Value
  ) async throws -> Value {
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (engine, database) = try openEngine(in: folder, model: nil, given: model, settings: settings)
    let app = try buildApplication(
      configuration: configuration, dependencies: ServerDependencies(engine: engine, logger: quietLogger))
    defer { Task { await engine.stopToolServers() } }
    return try await app.test(.router) { client in
      try await body(
        LiveServer(port: 0, database: database, configuration: configuration, client: client, engine: engine))
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
    /// The body's bytes, for bodies that are not text (audio).
    var data = Data()
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)) }
  }

  func request(
    _ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []
  ) async throws -> Reply {
    try await request(method, path, bytes: body.map { Data($0.utf8) }, headers: headers)
  }

  /// A multipart/form-data upload: text fields, then files as (field, file name, bytes).
  func upload(
    _ path: String, fields: [(String, String)], files: [(String, String, Data)], headers: [(String, String)] = []
  ) async throws -> Reply {
    let boundary = "hearth-test-\(UUID().uuidString)"
    return try await request(
      .POST, path, bytes: MultipartBody.encode(fields: fields, files: files, boundary: boundary),
      headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")] + headers)
  }

  func request(
    _ method: HTTPMethod, _ path: String, bytes body: Data?, headers: [(String, String)] = []
  ) async throws -> Reply {
    if let client {
      var fields = HTTPFields()
      if body != nil { fields[.contentType] = "application/json" }
      for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
      let response = try await client.execute(
        uri: path, method: HTTPRequest.Method(rawValue: method.rawValue)!, headers: fields,
        body: body.map { ByteBuffer(bytes: $0) })
      return Reply(
        status: Int(response.status.code), headers: response.headers.map { ($0.name.canonicalName, $0.value) },
        body: String(buffer: response.body), data: Data(response.body.readableBytesView))
    }
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if body != nil { request.headers.add(name: "Content-Type", value: "application/json") }
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    let response = try await Self.client.execute(request, timeout: .seconds(120))
    let bytes = try await response.body.collect(upTo: 16 << 20)
    return Reply(
      status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
      body: String(buffer: bytes), data: Data(bytes.readableBytesView))
  }

  /// The body of a streamed response as it arrives: each element is one network read, with when it came (in
  /// process, the whole body as one element).
  func stream(
    _ path: String, body: String, headers: [(String, String)] = []
  ) async throws -> (status: Int, chunks: HTTPClientResponse.Body) {
    if client != nil {
      let reply = try await request(.POST, path, body: body, headers: headers)
      return (reply.status, .bytes(ByteBuffer(string: reply.body)))
    }
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

/// multipart/form-data bodies, written the way browsers and OpenAI's clients write them.
enum MultipartBody {
  static func encode(fields: [(String, String)], files: [(String, String, Data)], boundary: String) -> Data {
    var body = Data()
    for (name, value) in fields {
      body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }
    for (name, filename, data) in files {
      body += Data(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n".utf8)
      body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + data + Data("\r\n".utf8)
    }
    return body + Data("--\(boundary)--\r\n".utf8)
  }
}
