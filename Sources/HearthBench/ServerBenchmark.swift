import AsyncHTTPClient
import Foundation
import HearthCore
import HearthEngine
import HearthServer
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Time to first token and generation speed of the same greedy completion three ways in one run: in
/// process, through Hearth's HTTP API, and through `llama-server` built from the same llama.cpp on the
/// same model, context and threads. Rounds rotate the order; each path gets a prompt of its own per round
/// so no path profits from another's cache.
public struct ServerBenchmark: Sendable {
  /// What to measure.
  public struct Configuration: Sendable {
    public var modelPath: String
    public var threads: Int
    public var contextSize = 2048
    public var generatedTokens = 128
    public var rounds = 20

    public init(modelPath: String, threads: Int) {
      self.modelPath = modelPath
      self.threads = threads
    }
  }

  /// The three ways a completion is measured.
  public enum Path: String, CaseIterable, Sendable {
    case inProcess = "in process"
    case hearth = "Hearth HTTP"
    case llamaServer = "llama-server HTTP"
  }

  /// One completion's figures.
  public struct Measurement: Sendable {
    public var firstTokenMs: Double
    public var tokensPerSecond: Double
    public var promptTokens: Int
  }

  /// Every round's figures per path.
  public struct Report: Sendable {
    public var configuration: Configuration
    public var results: [Path: [Measurement]]

    public func median(_ path: Path, _ value: (Measurement) -> Double) -> Double {
      Samples(samples: (results[path] ?? []).map(value)).median
    }
    public func speed(_ path: Path) -> Double { median(path, \.tokensPerSecond) }
    public func firstToken(_ path: Path) -> Double { median(path, \.firstTokenMs) }

    /// The median over rounds of `value(numerator) ÷ value(denominator)` within each round, so that the
    /// machine's drift from round to round falls on both sides of every ratio alike.
    public func pairedRatio(_ numerator: Path, over denominator: Path, _ value: (Measurement) -> Double) -> Double {
      let ratios = zip(results[numerator] ?? [], results[denominator] ?? []).map { top, bottom in
        value(top) / max(value(bottom), 1e-9)
      }
      return Samples(samples: ratios).median
    }
  }

  let configuration: Configuration
  let tools: LlamaTools

  /// Creates the benchmark.
  public init(configuration: Configuration, tools: LlamaTools = LlamaTools()) {
    self.configuration = configuration
    self.tools = tools
  }

  /// Runs every round.
  public func run(progress: Benchmark.Progress) async throws -> Report {
    progress("loading \(configuration.modelPath)")
    let local = try await LocalModel.load(
      LocalModelOptions(
        path: configuration.modelPath, contextSize: configuration.contextSize, threads: configuration.threads))
    let hearth = try await BenchHearthServer.start(model: local, label: "server")
    defer { hearth.stop() }
    let hearthPort = hearth.port

    progress("starting llama-server")
    let llamaServer = try await LlamaServerProcess.start(
      executable: try tools.locate("llama-server"), model: configuration.modelPath, threads: configuration.threads,
      contextSize: configuration.contextSize, slots: 1)
    defer { llamaServer.stop() }

    let measure: @Sendable (Path, String) async throws -> Measurement = { path, prompt in
      switch path {
      case .inProcess: try await Self.inProcess(local, prompt: prompt, tokens: configuration.generatedTokens)
      case .hearth:
        try await Self.overHTTP(port: hearthPort, prompt: prompt, tokens: configuration.generatedTokens)
      case .llamaServer:
        try await Self.overHTTP(port: llamaServer.port, prompt: prompt, tokens: configuration.generatedTokens)
      }
    }
    for path in Path.allCases { _ = try await measure(path, "Warm up \(path.rawValue).") }
    var results: [Path: [Measurement]] = [:]
    for round in 0..<configuration.rounds {
      let order = Path.allCases.indices.map { Path.allCases[($0 + round) % Path.allCases.count] }
      for path in order {
        let prompt =
          "Request \(round)-\(Path.allCases.firstIndex(of: path) ?? 0): write a long story about a lighthouse keeper and a storm."
        results[path, default: []].append(try await measure(path, prompt))
      }
      progress("round \(round + 1) of \(configuration.rounds)")
    }
    await hearth.shutDown()
    return Report(configuration: configuration, results: results)
  }

  /// Given explicitly so every path renders the same prompt (templates differ in their default one).
  private static let systemPrompt = "You are a helpful assistant."

  private static func inProcess(_ model: LocalModel, prompt: String, tokens: Int) async throws -> Measurement {
    let options = GenerationOptions(maxNewTokens: tokens, sampling: .greedy, ignoresEndOfGeneration: true)
    let clock = ContinuousClock()
    let start = clock.now
    var first: ContinuousClock.Instant?
    var last = start
    var count = 0
    var promptTokens = 0
    for try await event in model.generate(messages: [.system(systemPrompt), .user(prompt)], options: options) {
      switch event {
      case .token:
        last = clock.now
        if first == nil { first = last }
        count += 1
      case .usage(let usage): promptTokens = usage.promptTokens
      case .done, .logprob, .promptProgress: break
      }
    }
    return Measurement(first: first, last: last, start: start, count: count, promptTokens: promptTokens)
  }

  private static func overHTTP(port: Int, prompt: String, tokens: Int) async throws -> Measurement {
    // Greedy with no repeat penalty, as the in-process path samples: the user's saved settings and
    // llama-server's defaults would otherwise each add work of their own.
    let answer = try await CompletionStream.post(
      port: port,
      body: [
        (
          "messages",
          .array([
            .object([("role", .string("system")), ("content", .string(systemPrompt))]),
            .object([("role", .string("user")), ("content", .string(prompt))]),
          ])
        ),
        ("max_tokens", .number(Double(tokens))), ("temperature", .number(0)), ("repeat_penalty", .number(1)),
        ("ignore_eos", .bool(true)),
      ])
    return Measurement(
      first: answer.firstText, last: answer.lastText, start: answer.start, count: answer.completionTokens,
      promptTokens: answer.promptTokens)
  }
}

extension ServerBenchmark.Measurement {
  /// Figures from when the first and last tokens arrived; speed counts the tokens after the first.
  init(
    first: ContinuousClock.Instant?, last: ContinuousClock.Instant, start: ContinuousClock.Instant, count: Int,
    promptTokens: Int
  ) {
    let firstAt = first ?? last
    let span = (last - firstAt).seconds
    self.init(
      firstTokenMs: (firstAt - start).milliseconds,
      tokensPerSecond: count > 1 && span > 0 ? Double(count - 1) / span : 0,
      promptTokens: promptTokens)
  }
}

/// `llama-server` running beside Hearth for the comparison, stopped when done.
struct LlamaServerProcess: Sendable {
  let process: Process
  let port: Int

  /// Starts it with `slots` slots of `contextSize` tokens each (llama-server's `-c` is every slot's together)
  /// and waits until it answers; one that never does is stopped.
  static func start(
    executable: String, model: String, threads: Int, contextSize: Int, slots: Int, extraArguments: [String] = []
  ) async throws -> LlamaServerProcess {
    let port = Int.random(in: 20_000...40_000)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      [
        "-m", model, "-t", "\(threads)", "-tb", "\(threads)", "-c", "\(contextSize * slots)", "-np", "\(slots)",
        "--host", "127.0.0.1", "--port", "\(port)", "--log-disable",
      ] + extraArguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let server = LlamaServerProcess(process: process, port: port)
    do {
      try await server.waitUntilReady()
    } catch {
      server.stop()
      throw error
    }
    return server
  }

  private func waitUntilReady() async throws {
    for _ in 0..<600 {
      guard process.isRunning else {
        throw BenchmarkError.toolFailed(tool: "llama-server", reason: "exited with status \(process.terminationStatus)")
      }
      var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/health")
      request.method = .GET
      if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)), response.status == .ok {
        return
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw BenchmarkError.toolFailed(tool: "llama-server", reason: "not ready after 60 s")
  }

  /// Asks it to stop, and kills it if it has not within five seconds.
  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    for _ in 0..<100 where process.isRunning { usleep(50_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}

/// Hearth's HTTP server on a scratch profile of its own, opened through the same entry point `hearth serve`
/// uses; the profile is removed when the server stops.
struct BenchHearthServer: Sendable {
  let port: Int
  private let group: ServiceGroup
  private let serving: Task<Void, any Error>
  private let home: URL

  /// Serves `model` on a new profile named after `label`.
  static func start(model: LocalModel, label: String) async throws -> BenchHearthServer {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(label)-\(UUID())")
    let engine = try Engine.open(EngineConfiguration(paths: HearthPaths(home: home)), model: model)
    var logger = Logger(label: "hearth.bench")
    logger.logLevel = .error
    let (ports, portReady) = AsyncStream.makeStream(of: Int.self)
    let app = try buildApplication(
      configuration: ServerConfiguration(port: 0), dependencies: ServerDependencies(engine: engine, logger: logger)
    ) {
      portReady.yield($0)
      portReady.finish()
    }
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    let serving = Task { try await group.run() }
    guard let port = await ports.first(where: { _ in true }) else {
      serving.cancel()
      try? FileManager.default.removeItem(at: home)
      throw CancellationError()
    }
    return BenchHearthServer(port: port, group: group, serving: serving, home: home)
  }

  /// Stops it gracefully.
  func shutDown() async {
    await group.triggerGracefulShutdown()
  }

  /// Stops it at once, and removes its profile.
  func stop() {
    serving.cancel()
    try? FileManager.default.removeItem(at: home)
  }
}
