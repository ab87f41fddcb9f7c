import HearthCore
import LlamaKit

/// Measures Hearth's own prompt evaluation and generation the way `llama-bench` measures llama.cpp's:
/// a prompt of random tokens evaluated from an empty cache, and a fixed number of tokens generated after a
/// one-token prompt. Both go through the same generation path users get.
struct InProcessBenchmark: Sendable {
  var session: LlamaSession

  /// Prompt tokens per second, once per repetition.
  func promptThroughput(tokens: Int, repetitions: Int) async throws -> Samples {
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let usage = try await runOnce(prompt: randomPrompt(tokens), newTokens: 1)
      guard usage.prefilledTokens == tokens else {
        throw BenchmarkError.measurementFailed("evaluated \(usage.prefilledTokens) of \(tokens) prompt tokens")
      }
      samples.append(usage.prefillTokensPerSecond)
    }
    return Samples(samples: samples)
  }

  /// Generated tokens per second, once per repetition. `tokens + 1` tokens are generated so that `tokens`
  /// decode-and-sample steps are timed, matching llama-bench's `tokens` decodes.
  func generationThroughput(tokens: Int, repetitions: Int) async throws -> Samples {
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let usage = try await runOnce(prompt: [session.model.warmUpToken], newTokens: tokens + 1)
      guard usage.generatedTokens == tokens + 1 else {
        throw BenchmarkError.measurementFailed("generated \(usage.generatedTokens) of \(tokens + 1) tokens")
      }
      samples.append(usage.generationTokensPerSecond)
    }
    return Samples(samples: samples)
  }

  /// One untimed run of each kind, as llama-bench does before measuring.
  func warmUp(promptTokens: Int) async throws {
    _ = try await runOnce(prompt: randomPrompt(promptTokens), newTokens: 1)
    _ = try await runOnce(prompt: [session.model.warmUpToken], newTokens: 2)
  }

  private func runOnce(prompt: [Int32], newTokens: Int) async throws -> GenerationUsage {
    await session.clearCache()
    let options = GenerationOptions(maxNewTokens: newTokens, sampling: .greedy, ignoresEndOfGeneration: true)
    for try await event in session.generate(prompt: prompt, options: options) {
      if case .usage(let usage) = event { return usage }
    }
    throw BenchmarkError.measurementFailed("the generation ended without usage figures")
  }

  private func randomPrompt(_ count: Int) -> [Int32] {
    let vocabulary = Int32(session.model.metadata.vocabularySize)
    return [session.model.warmUpToken] + (1..<max(1, count)).map { _ in Int32.random(in: 0..<vocabulary) }
  }
}
