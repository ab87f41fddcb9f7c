import Foundation
import HearthCore
import HearthEngine

/// Prompt-lookup speculation where copying is likely, in one run: the 20 ``RewriteTasks`` go to Hearth's API
/// (drafting as its policy decides, and with `speculative.n_max: 0`) and to `llama-server` without speculation
/// and with each of its n-gram variants (one server each, all started at once on the same model, context and
/// threads). The ten short questions go to Hearth as its policy decides (no drafts) and with drafts forced on,
/// to show what drafting would cost a chat. Every answer is greedy; for each task the sides' order rotates.
public struct RewriteBenchmark: Sendable {
  /// What to measure.
  public struct Configuration: Sendable {
    public var modelPath: String
    public var threads: Int
    public var contextSize = 2048
    public var maxTokens = 256
    /// How many of the 20 tasks and of the 10 questions to send.
    public var tasks = RewriteTasks.tasks.count
    public var questions = RewriteTasks.questions.count
    /// llama-server's n-gram variants to compare (`--spec-type`).
    public var spectypes = ["ngram-simple", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache"]

    public init(modelPath: String, threads: Int) {
      self.modelPath = modelPath
      self.threads = threads
    }
  }

  /// One server setting answers were measured on.
  public enum Side: Hashable, Sendable, CustomStringConvertible {
    /// Hearth, sent `speculative.n_max` when given (`nil`: its policy decides).
    case hearth(drafts: Int?)
    /// llama-server started with `--spec-type` when given (`nil`: no speculation).
    case llamaServer(specType: String?)

    public var description: String {
      switch self {
      case .hearth(let drafts?): "Hearth, speculative.n_max \(drafts)"
      case .hearth(nil): "Hearth, as its policy decides"
      case .llamaServer(let specType?): "llama-server --spec-type \(specType)"
      case .llamaServer(nil): "llama-server, no speculation"
      }
    }
  }

  /// One answer's figures.
  public struct Answer: Sendable {
    public var tokens: Int
    /// Tokens after the first over the time from the first text to the last.
    public var tokensPerSecond: Double
    public var text: String
  }

  /// Every answer of every side.
  public struct Report: Sendable {
    public var configuration: Configuration
    /// Sides measured on the tasks, Hearth's policy first.
    public var taskSides: [Side]
    public var tasks: [Side: [Answer]]
    public var questions: [Side: [Answer]]

    /// Tokens over time, all of a side's answers together.
    public static func aggregate(_ answers: [Answer]) -> Double {
      decodeSpeed(answers.map { ($0.tokens, $0.tokensPerSecond) })
    }

    /// The median over answers of `top`'s speed over `bottom`'s for the same prompt.
    public static func ratio(_ top: [Answer], over bottom: [Answer]) -> Double {
      Samples(samples: zip(top, bottom).map { $0.tokensPerSecond / max($1.tokensPerSecond, 1e-9) }).median
    }

    /// How many of `side`'s answers say word for word what `reference`'s say.
    public static func sameText(_ side: [Answer], as reference: [Answer]) -> Int {
      zip(side, reference).filter { $0.text == $1.text }.count
    }
  }

  let configuration: Configuration
  let tools: LlamaTools

  public init(configuration: Configuration, tools: LlamaTools = LlamaTools()) {
    self.configuration = configuration
    self.tools = tools
  }

  /// Starts the servers and sends every prompt to every side.
  public func run(progress: Benchmark.Progress) async throws -> Report {
    // Each Hearth side has a server and model of its own, as each llama-server does: a prompt that another side
    // left cached would start from other arithmetic (BatchArithmeticTests) and could answer differently.
    let hearthSides = [Side.hearth(drafts: nil), .hearth(drafts: 0), .hearth(drafts: DraftPolicy.copyingDraftTokens)]
    var hearths: [BenchHearthServer] = []
    defer { hearths.forEach { $0.stop() } }
    var ports: [Side: Int] = [:]
    for side in hearthSides {
      progress("loading \(configuration.modelPath) for \(side)")
      let local = try await LocalModel.load(
        LocalModelOptions(
          path: configuration.modelPath, contextSize: configuration.contextSize, threads: configuration.threads))
      let server = try await BenchHearthServer.start(model: local, label: "rewrite")
      hearths.append(server)
      ports[side] = server.port
    }
    var servers: [LlamaServerProcess] = []
    defer { servers.forEach { $0.stop() } }
    for specType in [nil] + configuration.spectypes {
      progress("starting llama-server\(specType.map { " --spec-type \($0)" } ?? "")")
      let server = try await LlamaServerProcess.start(
        executable: try tools.locate("llama-server"), model: configuration.modelPath,
        threads: configuration.threads, contextSize: configuration.contextSize, slots: 1,
        extraArguments: specType.map { ["--spec-type", $0] } ?? [])
      servers.append(server)
      ports[.llamaServer(specType: specType)] = server.port
    }
    let taskSides =
      [Side.hearth(drafts: nil), .hearth(drafts: 0), .llamaServer(specType: nil)]
      + configuration.spectypes.map { Side.llamaServer(specType: $0) }
    let questionSides = [hearthSides[0], hearthSides[2]]

    let tasks = try await measure(
      Array(RewriteTasks.tasks.prefix(configuration.tasks)), sides: taskSides, ports: ports, label: "task",
      progress: progress)
    let questions = try await measure(
      Array(RewriteTasks.questions.prefix(configuration.questions)), sides: questionSides, ports: ports,
      label: "question", progress: progress)
    for server in hearths { await server.shutDown() }
    return Report(configuration: configuration, taskSides: taskSides, tasks: tasks, questions: questions)
  }

  private func measure(
    _ prompts: [String], sides: [Side], ports: [Side: Int], label: String, progress: Benchmark.Progress
  ) async throws -> [Side: [Answer]] {
    // An unmeasured answer from each side first, so none pays for its warm-up in the figures.
    for side in sides { _ = try await ask("Say hello.", side: side, port: ports[side]!) }
    var answers: [Side: [Answer]] = [:]
    for (index, prompt) in prompts.enumerated() {
      for offset in sides.indices {
        let side = sides[(offset + index) % sides.count]
        answers[side, default: []].append(try await ask(prompt, side: side, port: ports[side]!))
      }
      progress("\(label) \(index + 1) of \(prompts.count)")
    }
    return answers
  }

  private func ask(_ prompt: String, side: Side, port: Int) async throws -> Answer {
    var body: [(String, JSONValue)] = [
      (
        "messages",
        .array([
          .object([("role", .string("system")), ("content", .string("You are a helpful assistant."))]),
          .object([("role", .string("user")), ("content", .string(prompt))]),
        ])
      ),
      ("max_tokens", .number(Double(configuration.maxTokens))), ("temperature", .number(0)),
      ("repeat_penalty", .number(1)),
    ]
    if case .hearth(let drafts?) = side { body.append(("speculative.n_max", .number(Double(drafts)))) }
    let stream = try await CompletionStream.post(port: port, body: body)
    return Answer(tokens: stream.completionTokens, tokensPerSecond: stream.tokensPerSecond, text: stream.text)
  }
}
