import Foundation
import HearthCore
import HearthEngine
import LlamaKit

/// The first answer after a cold start, with and without reading the model ahead (the runtime setting
/// `prefetch`): launch to first output byte of `hearth ask` with the model file dropped from the page cache,
/// with it dropped and `prefetch` on, and with it already cached; llama.cpp's `llama-completion` from a
/// dropped cache beside them, as the reference.
public struct PrefetchBenchmark: Sendable {
  public var model: String
  public var threads: Int
  public var rounds: Int
  /// This program, launched as `hearth ask`.
  public var hearthExecutable: String
  public var llamaCompletion: String

  public init(model: String, threads: Int, rounds: Int, hearthExecutable: String, llamaCompletion: String) {
    self.model = model
    self.threads = threads
    self.rounds = rounds
    self.hearthExecutable = hearthExecutable
    self.llamaCompletion = llamaCompletion
  }

  /// Milliseconds from launch to the first byte of the answer, by how the run started.
  public struct Result: Sendable, Codable, Hashable {
    public var model: String
    public var modelBytes: UInt64
    /// `hearth ask`, the file dropped from the cache.
    public var cold: Samples
    /// `hearth ask` with `prefetch` on, the file dropped from the cache.
    public var prefetched: Samples
    /// `hearth ask`, the file in the cache.
    public var cached: Samples
    /// `llama-completion`, the file dropped from the cache.
    public var llamaCold: Samples
    /// The largest share of the file found in the cache just before a cold launch (0 when the drop worked).
    public var residentBeforeCold: Double

    enum CodingKeys: String, CodingKey {
      case model, cold, prefetched, cached
      case modelBytes = "model_bytes"
      case llamaCold = "llama_completion_cold"
      case residentBeforeCold = "resident_before_cold"
    }
  }

  static let system = "You are a helpful assistant."
  static let question = "What is the capital of France?"

  public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Result {
    // The chat template is read from a model loaded here and let go at once: a mapping kept open would keep
    // the file's pages in the cache.
    let formatted = try await Self.formatted(model)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID())")
    let reading = scratch.appendingPathComponent("prefetch")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let ask = [
      "ask", Self.question, "--system", Self.system, "--model", model, "--temperature", "0", "--max-tokens", "8",
      "--threads", "\(threads)",
    ]
    let plain = ChildProcess(
      executable: hearthExecutable, arguments: ask,
      environment: ["HEARTH_HOME": scratch.appendingPathComponent("plain").path])
    let ahead = ChildProcess(executable: hearthExecutable, arguments: ask, environment: ["HEARTH_HOME": reading.path])
    // Both profiles are made before any launch is timed, so that neither pays for its creation.
    for (home, flag) in [(reading, "--prefetch"), (scratch.appendingPathComponent("plain"), "--no-prefetch")] {
      let setting = try await ChildProcess(
        executable: hearthExecutable, arguments: ["models", "settings", "apply", flag],
        environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": model]
      ).run()
      guard setting.status == 0 else {
        throw BenchmarkError.toolFailed(tool: "hearth models settings apply \(flag)", reason: setting.standardError)
      }
    }
    let llama = ChildProcess(
      executable: llamaCompletion,
      arguments: [
        "-m", model, "-p", formatted, "-n", "8", "--temp", "0", "-t", "\(threads)", "-no-cnv", "--no-display-prompt",
      ])
    var (cold, prefetched, cached, llamaCold) = ([Double](), [Double](), [Double](), [Double]())
    var resident = 0.0
    for round in 1...rounds {
      progress("round \(round) of \(rounds)")
      // Each cold launch starts from a dropped cache; the order changes each round.
      for kind in round % 2 == 0 ? [0, 1, 2] : [2, 1, 0] {
        try FileCache.drop(model)
        resident = max(resident, try FileCache.residentShare(model))
        switch kind {
        case 0: cold.append(try await FirstTokenComparison.firstOutput(of: plain, name: "hearth ask"))
        case 1: prefetched.append(try await FirstTokenComparison.firstOutput(of: ahead, name: "hearth ask (prefetch)"))
        default: llamaCold.append(try await FirstTokenComparison.firstOutput(of: llama, name: "llama-completion"))
        }
      }
      cached.append(try await FirstTokenComparison.firstOutput(of: plain, name: "hearth ask (cached)"))
    }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: model)[.size] as? NSNumber)?.uint64Value ?? 0
    return Result(
      model: URL(fileURLWithPath: model).lastPathComponent, modelBytes: bytes, cold: Samples(samples: cold),
      prefetched: Samples(samples: prefetched), cached: Samples(samples: cached),
      llamaCold: Samples(samples: llamaCold), residentBeforeCold: resident)
  }

  private static func formatted(_ path: String) async throws -> String {
    // A bundled model without a template of its own is run with the catalogue's.
    let template = BundledModels.entry(forFile: path)?.chatTemplate
    let model = try await LlamaModel.load(path: path, options: ModelLoadOptions(chatTemplateOverride: template))
    return try model.formatChat([.system(system), .user(question)])
  }

  /// The result as a table, with each median's ratio to llama-completion's cold start.
  public static func table(_ result: Result) -> String {
    let reference = result.llamaCold.median
    func row(_ label: String, _ samples: Samples) -> String {
      label.padding(toLength: 34, withPad: " ", startingAt: 0)
        + String(
          format: "%8.0f ms   %5.2f× llama-completion cold\n", samples.median, samples.median / max(reference, 1))
    }
    return "\(result.model) (\(result.modelBytes / 1_048_576) MiB): launch to first answer byte, median of "
      + "\(result.cold.samples.count)\n" + row("hearth ask, cold", result.cold)
      + row("hearth ask, cold, prefetch on", result.prefetched) + row("hearth ask, file cached", result.cached)
      + row("llama-completion, cold", result.llamaCold)
      + String(
        format: "prefetch ÷ cold: %.2f; most of the file cached before a cold launch: %.0f %%\n",
        result.prefetched.median / max(result.cold.median, 1), result.residentBeforeCold * 100)
  }
}
