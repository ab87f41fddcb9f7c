import Foundation
import HearthCore
import HearthEngine

/// JSON-schema answers through Hearth's API and through `llama-server` (built from the same llama.cpp, same
/// model, threads and context) in one run: every request of ``StructuredRequests`` goes to Hearth three ways
/// (the text the grammar forces evaluated in one batch; the same tokens one per step; sampled like free text)
/// and to llama-server, greedy, with the same `response_format`, the order turning from request to request.
/// Each answer is checked against its schema, and Hearth's answers against each other.
public struct StructuredBenchmark: Sendable {
  /// What to measure.
  public struct Configuration: Sendable {
    public var modelPath: String
    public var threads: Int
    public var contextSize = 2048
    /// The token budget of every answer.
    public var maxTokens = 256
    /// How many of the requests to send (all 30 by default).
    public var requests = StructuredRequests.all.count

    public init(modelPath: String, threads: Int) {
      self.modelPath = modelPath
      self.threads = threads
    }
  }

  /// The servers compared.
  public enum Server: String, CaseIterable, Sendable, Codable {
    case hearth = "Hearth"
    case hearthStepwise = "Hearth, forced_spans \"stepwise\""
    case hearthUnforced = "Hearth, forced_spans false"
    case llamaServer = "llama-server"
  }

  /// One answer's figures.
  public struct Answer: Sendable, Codable {
    public var tokens: Int
    /// Tokens per second after the first.
    public var tokensPerSecond: Double
    /// From sending the request to the end of the answer.
    public var totalMs: Double
    public var finishReason: String?
    /// Tokens the grammar forced (Hearth's `timings.forced_n`); `nil` when the server does not say.
    public var forcedTokens: Int?
    /// How the answer breaks its schema (it does not parse, a field is missing …); empty when it conforms.
    public var problems: [String]
    public var text: String
    public var valid: Bool { problems.isEmpty }
  }

  /// Every request's answer from each server.
  public struct Report: Sendable {
    public var configuration: Configuration
    public var requests: [StructuredRequest]
    public var answers: [Server: [Answer]]

    /// Tokens over decoding time, all answers of `server` together.
    public func aggregateSpeed(_ server: Server) -> Double {
      decodeSpeed((answers[server] ?? []).map { ($0.tokens, $0.tokensPerSecond) })
    }

    /// The median over requests of `side`'s tokens per second over llama-server's for the same request.
    public func speedRatio(_ side: Server = .hearth) -> Double {
      paired(side, .llamaServer) { hearth, server in hearth.tokensPerSecond / max(server.tokensPerSecond, 1e-9) }
    }

    /// The median over requests of `baseline`'s time to the whole answer over `side`'s (above 1: `side` is done
    /// sooner).
    public func completionSpeedUp(_ side: Server = .hearth, over baseline: Server = .llamaServer) -> Double {
      paired(side, baseline) { side, baseline in baseline.totalMs / max(side.totalMs, 1e-9) }
    }

    public func validCount(_ server: Server) -> Int { (answers[server] ?? []).filter(\.valid).count }

    /// The requests whose answer with forced spans parses to another value than `other`'s.
    public func differingValues(from other: Server) -> [Int] {
      let forced = answers[.hearth] ?? []
      let unforced = answers[other] ?? []
      return zip(forced, unforced).enumerated().compactMap { index, pair in
        Self.value(pair.0.text) == Self.value(pair.1.text) && Self.value(pair.0.text) != nil ? nil : index
      }
    }

    /// The requests whose answer with forced spans is not, character for character, `other`'s.
    public func differingTexts(from other: Server) -> [Int] {
      zip(answers[.hearth] ?? [], answers[other] ?? []).enumerated().compactMap { $1.0.text == $1.1.text ? nil : $0 }
    }

    /// Tokens forced over tokens generated, all of Hearth's answers with forced spans together.
    public var forcedShare: Double {
      let answers = answers[.hearth] ?? []
      let total = answers.map(\.tokens).reduce(0, +)
      return total > 0 ? Double(answers.compactMap(\.forcedTokens).reduce(0, +)) / Double(total) : 0
    }

    private static func value(_ text: String) -> JSONValue? {
      do {
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
      } catch {
        return nil
      }
    }

    private func paired(_ side: Server, _ baseline: Server, _ ratio: (Answer, Answer) -> Double) -> Double {
      Samples(samples: zip(answers[side] ?? [], answers[baseline] ?? []).map(ratio)).median
    }
  }

  let configuration: Configuration
  let tools: LlamaTools

  /// Creates the benchmark.
  public init(configuration: Configuration, tools: LlamaTools = LlamaTools()) {
    self.configuration = configuration
    self.tools = tools
  }

  /// Sends every request to both servers.
  public func run(progress: Benchmark.Progress) async throws -> Report {
    progress("loading \(configuration.modelPath)")
    let local = try await LocalModel.load(
      LocalModelOptions(
        path: configuration.modelPath, contextSize: configuration.contextSize, threads: configuration.threads))
    let hearth = try await BenchHearthServer.start(model: local, label: "structured")
    defer { hearth.stop() }
    progress("starting llama-server")
    let llamaServer = try await LlamaServerProcess.start(
      executable: try tools.locate("llama-server"), model: configuration.modelPath, threads: configuration.threads,
      contextSize: configuration.contextSize, slots: 1)
    defer { llamaServer.stop() }
    let ports: [Server: Int] = [
      .hearth: hearth.port, .hearthStepwise: hearth.port, .hearthUnforced: hearth.port, .llamaServer: llamaServer.port,
    ]
    progress("Hearth on port \(hearth.port), llama-server on port \(llamaServer.port)")

    let requests = Array(StructuredRequests.all.prefix(configuration.requests))
    // One unmeasured answer each, so neither pays for its first grammar or warm-up in the figures.
    for server in Server.allCases { _ = try await ask(requests[0], on: server, port: ports[server]!) }
    var answers: [Server: [Answer]] = [:]
    for (index, request) in requests.enumerated() {
      let sides = Server.allCases
      let order = sides.indices.map { sides[($0 + index) % sides.count] }
      for server in order {
        answers[server, default: []].append(try await ask(request, on: server, port: ports[server]!))
      }
      progress("request \(index + 1) of \(requests.count)")
    }
    await hearth.shutDown()
    return Report(configuration: configuration, requests: requests, answers: answers)
  }

  private func ask(_ request: StructuredRequest, on server: Server, port: Int) async throws -> Answer {
    let format = JSONValue.object([
      ("type", .string("json_schema")),
      ("json_schema", .object([("name", .string(request.schemaName)), ("schema", request.schema)])),
    ])
    var fields: [(String, JSONValue)] = []
    switch server {
    case .hearth: fields = [("timings_per_token", .bool(true))]
    case .hearthStepwise: fields = [("timings_per_token", .bool(true)), ("forced_spans", .string("stepwise"))]
    case .hearthUnforced: fields = [("timings_per_token", .bool(true)), ("forced_spans", .bool(false))]
    case .llamaServer: break
    }
    let stream = try await CompletionStream.post(
      port: port,
      body: fields + [
        (
          "messages",
          .array([
            .object([("role", .string("system")), ("content", .string(request.system))]),
            .object([("role", .string("user")), ("content", .string(request.user))]),
          ])
        ),
        ("max_tokens", .number(Double(configuration.maxTokens))), ("temperature", .number(0)),
        ("repeat_penalty", .number(1)), ("response_format", format),
      ])
    let problems: [String]
    do {
      let value = try JSONDecoder().decode(JSONValue.self, from: Data(stream.text.utf8))
      problems = SchemaCheck.problems(value, against: request.schema)
    } catch {
      problems = [stream.finishReason == "length" ? "cut off at the token budget" : "not JSON"]
    }
    return Answer(
      tokens: stream.completionTokens, tokensPerSecond: stream.tokensPerSecond,
      totalMs: (stream.end - stream.start).milliseconds, finishReason: stream.finishReason,
      forcedTokens: stream.forcedTokens, problems: problems, text: stream.text)
  }
}
