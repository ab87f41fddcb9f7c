import Foundation
import HearthCore

/// Time to first token of `hearth ask` with the full default system prompt, run twice in a fresh profile
/// with a fresh prefix cache: the first run reads Hearth's instructions and keeps their evaluated state on
/// disk; the second, a new process, starts after them.
struct AskPrefixBenchmark: Sendable {
  var executable: String
  var modelPath: String
  var threads: Int
  var repetitions: Int

  /// Milliseconds to the first token of the first and of the second run, and the prompt's tokens.
  func run(progress: Benchmark.Progress) async throws -> (first: Samples, second: Samples, promptTokens: Int) {
    var first: [Double] = []
    var second: [Double] = []
    var promptTokens = 0
    for repetition in 0..<repetitions {
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-ask-\(UUID())")
      defer { try? FileManager.default.removeItem(at: scratch) }
      let environment = [
        "HEARTH_HOME": scratch.path, "HEARTH_PREFIX_CACHE": scratch.appendingPathComponent("prefixes").path,
      ]
      for run in 0..<2 {
        progress(
          "hearth ask, \(run == 0 ? "first" : "second") run in a fresh profile (\(repetition + 1) of \(repetitions))")
        let output = try await ChildProcess(
          executable: executable,
          arguments: [
            "ask", "What is the capital of France?", "--model", modelPath, "--temperature", "0", "--max-tokens", "8",
            "--threads", "\(threads)", "--json",
          ],
          environment: environment
        ).run()
        guard output.status == 0,
          let report = try? JSONDecoder().decode(JSONValue.self, from: Data(output.standardOutput.utf8)),
          let ttft = report["time_to_first_token_ms"]?.numberValue
        else {
          throw BenchmarkError.measurementFailed(
            "hearth ask exited with \(output.status): \(output.standardError.suffix(300))")
        }
        promptTokens = Int(report["prompt_tokens"]?.numberValue ?? 0)
        if run == 0 { first.append(ttft) } else { second.append(ttft) }
      }
    }
    return (Samples(samples: first), Samples(samples: second), promptTokens)
  }
}
