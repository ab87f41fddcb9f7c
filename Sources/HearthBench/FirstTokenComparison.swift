import Foundation
import HearthCore

/// Launch-to-first-output-byte of `hearth ask` and `llama-completion` on the same prompt (model load
/// included on both sides), with each tool's greedy answer. `hearth ask` saves its exchange as users'
/// asks do, into a scratch profile so the user's own sessions are left alone.
public struct FirstTokenComparison: Sendable {
  /// Milliseconds per launch of `hearth ask`.
  public var hearth: Samples
  /// Milliseconds per launch of `llama-completion`.
  public var llamaCompletion: Samples

  /// Hearth's median ÷ llama-completion's (lower is better for Hearth).
  public var ratio: Double { llamaCompletion.median > 0 ? hearth.median / llamaCompletion.median : 0 }

  static func measure(
    configuration: Benchmark.Configuration, llamaCompletion: String, formattedPrompt: String
  )
    async throws(BenchmarkError) -> FirstTokenComparison
  {
    let newTokens = 8
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let hearthLaunch = ChildProcess(
      executable: configuration.hearthExecutable,
      arguments: [
        "ask", configuration.firstTokenPrompt, "--system", configuration.firstTokenSystemPrompt, "--model",
        configuration.modelPath, "--temperature", "0", "--max-tokens", "\(newTokens)", "--threads",
        "\(configuration.threads)", "--gpu-layers", "\(configuration.gpuLayers)",
      ],
      environment: ["HEARTH_HOME": scratch.path])
    let llamaLaunch = ChildProcess(
      executable: llamaCompletion,
      arguments: [
        "-m", configuration.modelPath, "-p", formattedPrompt, "-n", "\(newTokens)", "--temp", "0",
        "-t", "\(configuration.threads)", "-ngl", "\(configuration.gpuLayers)", "-no-cnv", "--no-display-prompt",
      ])
    var hearth: [Double] = []
    var llama: [Double] = []
    for _ in 0..<configuration.firstTokenLaunches {
      hearth.append(try await firstOutput(of: hearthLaunch, name: "hearth ask"))
      llama.append(try await firstOutput(of: llamaLaunch, name: "llama-completion"))
    }
    return FirstTokenComparison(hearth: Samples(samples: hearth), llamaCompletion: Samples(samples: llama))
  }

  /// Milliseconds from `launch` to its first output byte; `name` names it in a failure.
  static func firstOutput(of launch: ChildProcess, name: String) async throws(BenchmarkError) -> Double {
    let output = try await launch.run()
    guard output.status == 0 else {
      throw .toolFailed(tool: name, reason: String(output.standardError.suffix(400)))
    }
    guard let first = output.firstOutputAfter else {
      throw .unreadableOutput(tool: name, detail: "it printed no answer")
    }
    return first.milliseconds
  }
}
