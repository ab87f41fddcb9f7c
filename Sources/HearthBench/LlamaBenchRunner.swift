import Foundation

/// Runs llama.cpp's `llama-bench` and reads its JSON results.
struct LlamaBenchRunner: Sendable {
  var executable: String

  struct Result: Sendable {
    var prompt: Samples
    var generation: Samples
  }

  private struct Entry: Decodable {
    var nPrompt: Int
    var nGen: Int
    var samplesTs: [Double]
  }

  func run(
    model: String, threads: Int, gpuLayers: Int = 0, promptTokens: Int, generatedTokens: Int, repetitions: Int
  )
    async throws(BenchmarkError) -> Result
  {
    let output = try await ChildProcess(
      executable: executable,
      arguments: [
        "-m", model, "-t", "\(threads)", "-ngl", "\(gpuLayers)", "-p", "\(promptTokens)", "-n", "\(generatedTokens)",
        "-r", "\(repetitions)", "-o", "json",
      ]
    ).run()
    guard output.status == 0 else {
      throw .toolFailed(tool: "llama-bench", reason: output.standardError.suffix(400).description)
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let entries: [Entry]
    do {
      entries = try decoder.decode([Entry].self, from: Data(output.standardOutput.utf8))
    } catch {
      throw .unreadableOutput(tool: "llama-bench", detail: "\(error)")
    }
    guard let prompt = entries.first(where: { $0.nPrompt == promptTokens && $0.nGen == 0 }),
      let generation = entries.first(where: { $0.nGen == generatedTokens && $0.nPrompt == 0 })
    else {
      throw .unreadableOutput(tool: "llama-bench", detail: "missing pp\(promptTokens) or tg\(generatedTokens)")
    }
    return Result(
      prompt: Samples(samples: prompt.samplesTs), generation: Samples(samples: generation.samplesTs))
  }
}
