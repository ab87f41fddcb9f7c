import Foundation
import HearthCore
import HearthEngine

/// How well the memory estimate predicts a load: each model is loaded in a process of its own (so nothing
/// another load left behind is counted), and the resident memory it adds is measured after the load (with
/// its warm-up decode) and again after evaluating a prompt of one full batch.
public struct LoadMemoryBenchmark: Sendable {
  /// One model's figures.
  public struct Row: Sendable, Codable, Hashable {
    public var model: String
    public var contextSize: Int
    public var estimate: UInt64
    public var estimateWeights: UInt64
    public var estimateKVCache: UInt64
    public var estimateCompute: UInt64
    /// Resident bytes added by loading the model and creating its context.
    public var afterLoad: UInt64
    /// Resident bytes added once a prompt of one full batch was evaluated.
    public var afterPrompt: UInt64
    public var loadSeconds: Double

    enum CodingKeys: String, CodingKey {
      case model, estimate
      case contextSize = "context_size"
      case estimateWeights = "estimate_weights"
      case estimateKVCache = "estimate_kv_cache"
      case estimateCompute = "estimate_buffers"
      case afterLoad = "rss_after_load"
      case afterPrompt = "rss_after_prompt"
      case loadSeconds = "load_seconds"
    }

    /// The estimate divided by the measured increase after the prompt.
    public var ratio: Double { afterPrompt > 0 ? Double(estimate) / Double(afterPrompt) : 0 }
  }

  public var models: [String]
  public var contextSize: Int
  public var threads: Int
  /// This program, run again as the probe.
  public var executable: String

  public init(models: [String], contextSize: Int, threads: Int, executable: String) {
    self.models = models
    self.contextSize = contextSize
    self.threads = threads
    self.executable = executable
  }

  /// Runs one probe process per model.
  public func run() async throws -> [Row] {
    var rows: [Row] = []
    for model in models {
      let output = try await ChildProcess(
        executable: executable,
        arguments: ["bench", "load", "--probe", model, "--context", "\(contextSize)", "--threads", "\(threads)"]
      ).run()
      guard output.status == 0, let row = try? JSONDecoder().decode(Row.self, from: Data(output.standardOutput.utf8))
      else { throw BenchmarkError.toolFailed(tool: "hearth bench load --probe", reason: output.standardError) }
      rows.append(row)
    }
    return rows
  }

  /// The probe: loads `model` in this process and measures what its resident memory grew by.
  public static func probe(model: String, contextSize: Int, threads: Int) async throws -> Row {
    let estimate = try ModelShape(path: model).estimate(contextSize: contextSize)
    let before = SystemMemory.residentBytes() ?? 0
    // A bundled model without a template of its own is run with the catalogue's.
    let template = BundledModels.entries.first { $0.fileName == URL(fileURLWithPath: model).lastPathComponent }?
      .chatTemplate
    let loaded = try await LocalModel.load(
      LocalModelOptions(path: model, contextSize: contextSize, threads: threads, chatTemplate: template))
    let afterLoad = SystemMemory.residentBytes() ?? 0
    let prompt = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 45)
    var options = GenerationOptions(maxNewTokens: 1)
    options.sampling.temperature = 0
    for try await _ in loaded.generate(messages: [ChatMessage(role: .user, content: prompt)], options: options) {}
    await loaded.settle()
    let afterPrompt = SystemMemory.residentBytes() ?? 0
    return Row(
      model: URL(fileURLWithPath: model).lastPathComponent, contextSize: contextSize, estimate: estimate.total,
      estimateWeights: estimate.weights, estimateKVCache: estimate.kvCache,
      estimateCompute: estimate.compute + estimate.outputs, afterLoad: afterLoad - before,
      afterPrompt: afterPrompt - before, loadSeconds: loaded.loadTime.seconds)
  }

  /// The rows as a table.
  public static func table(_ rows: [Row]) -> String {
    func mib(_ bytes: UInt64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
    var text =
      "model                              ctx   estimate MiB (weights+KV+buffers)   RSS added: load   +prompt   "
      + "estimate ÷ RSS (load, +prompt)\n"
    for row in rows {
      text +=
        row.model.padding(toLength: 35, withPad: " ", startingAt: 0)
        + "\(row.contextSize)".padding(toLength: 6, withPad: " ", startingAt: 0)
        + "\(mib(row.estimate)) (\(mib(row.estimateWeights))+\(mib(row.estimateKVCache))+\(mib(row.estimateCompute)))"
        .padding(toLength: 36, withPad: " ", startingAt: 0)
        + mib(row.afterLoad).padding(toLength: 18, withPad: " ", startingAt: 0)
        + mib(row.afterPrompt).padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(format: "%.3f, %.3f", Double(row.estimate) / Double(max(1, row.afterLoad)), row.ratio) + "\n"
    }
    return text
  }
}
