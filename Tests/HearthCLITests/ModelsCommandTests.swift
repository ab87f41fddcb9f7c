import Foundation
import HearthTestSupport
import Testing

@Suite("hearth models: pull, list, verify, use and rm against nginx, as a user would", .heavy)
struct ModelsCommandTests {
  @Test func aPulledModelIsListedChosenAndAnswers() async throws {
    let served = try TestModels.temporaryDirectory()
    try FileManager.default.createSymbolicLink(
      atPath: served.appendingPathComponent("smol.gguf").path, withDestinationPath: TestModels.smolLM2)
    let nginx = try NginxServer(root: served)
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": ""])
    let smolHash = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

    let loopback = try await hearth.run(["models", "pull", "\(nginx.base)/smol.gguf", "--sha256", smolHash])
    #expect(loopback.status == 1)
    #expect(loopback.standardError.contains("127.0.0.1 is a loopback address"), "\(loopback.standardError)")
    #expect(loopback.standardError.contains("--allow-private-network"))

    let wrong = try await hearth.run([
      "models", "pull", "\(nginx.base)/smol.gguf", "--sha256", String(repeating: "0", count: 64),
      "--allow-private-network",
    ])
    #expect(wrong.status == 1)
    #expect(wrong.standardError.contains("nothing was installed"))
    #expect(try await hearth.run(["models", "list"]).standardOutput.contains("No models installed"))

    // The bytes are the bundled SmolLM2's, so it installs as that catalogue entry.
    let pulled = try await hearth.run([
      "models", "pull", "\(nginx.base)/smol.gguf", "--sha256", smolHash, "--allow-private-network",
    ])
    #expect(pulled.status == 0, "\(pulled.standardError)")
    #expect(pulled.standardOutput.contains("Installed smollm2-135m-instruct"))
    #expect(pulled.standardError.contains("93.8 / 93.8 MiB"))

    let list = try await hearth.run(["models", "list", "--json"])
    let models = try #require(
      try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
    #expect(models.map { $0["id"] as? String } == ["smollm2-135m-instruct"])
    #expect(models.first?["status"] as? String == "ready")
    #expect(models.first?["verified"] as? Bool == true)

    #expect(try await hearth.run(["models", "verify", "smollm2-135m-instruct"]).status == 0)
    #expect(try await hearth.run(["models", "use", "smollm2-135m-instruct"]).status == 0)
    let refused = try await hearth.run(["models", "use", "all-minilm-l6-v2"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("not installed"))

    let answer = try await hearth.run(["ask", "Say hi.", "--temperature", "0", "--max-tokens", "4", "--json"])
    #expect(answer.status == 0, "\(answer.standardError)")
    #expect(answer.standardOutput.contains(home.appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf").path))

    #expect(try await hearth.run(["models", "rm", "smollm2-135m-instruct"]).status == 0)
    let gone = try await hearth.run(["ask", "Say hi.", "--max-tokens", "4"])
    #expect(gone.status == 1)
    #expect(gone.standardError.contains("not installed"))
  }
}

@Suite("hearth bench load: the estimate against the resident memory a load adds", .heavy)
struct LoadMemoryBenchTests {
  @Test func theEstimateIsWithinFifteenPercentOfTheMeasuredIncrease() async throws {
    let result = try await CommandRunner().run([
      "bench", "load", "--model", TestModels.smolLM2, "--model", TestModels.gemma3, "--context", "2048", "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    #expect(rows.count == 2)
    for row in rows {
      let estimate = try #require(row["estimate"] as? Double)
      let measured = try #require(row["rss_after_prompt"] as? Double)
      #expect(abs(estimate / measured - 1) <= 0.15, "\(row)")
    }
  }
}

@Suite("hearth bench prefetch: a cold first answer with and without reading the model ahead", .heavy)
struct PrefetchBenchTests {
  @Test func eachKindOfLaunchIsMeasuredFromADroppedCache() async throws {
    // A copy of its own, which no other test's process maps, so that dropping it from the cache holds.
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent(URL(fileURLWithPath: TestModels.smolLM2).lastPathComponent)
    try FileManager.default.copyItem(atPath: TestModels.smolLM2, toPath: copy.path)
    let result = try await CommandRunner().run(["bench", "prefetch", "--model", copy.path, "--rounds", "1", "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    for kind in ["cold", "prefetched", "cached", "llama_completion_cold"] {
      let samples = (report[kind] as? [String: Any])?["samples"] as? [Double]
      #expect(samples?.count == 1 && (samples?.first ?? 0) > 0, "\(kind): \(report)")
    }
    #expect(report["resident_before_cold"] as? Double == 0)
    #expect(report["model_bytes"] as? Int == 98_362_432)
  }
}

@Suite("hearth models settings: presets, preview, validate and test", .heavy)
struct ModelSettingsCommandTests {
  @Test func aPresetIsPreviewedAppliedValidatedAndTested() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    let preview = try await hearth.run(["models", "settings", "preview", "--preset", "efficient", "--json"])
    #expect(preview.status == 0, "\(preview.standardError)")
    let impact = try #require(
      try JSONSerialization.jsonObject(with: Data(preview.standardOutput.utf8)) as? [String: Any])
    #expect((impact["proposed"] as? [String: Any])?["context_size"] as? Int == 1024)
    #expect((impact["current"] as? [String: Any])?["context_size"] as? Int == 4096)
    // A quarter of the window leaves little of a conversation beside the instructions and an answer.
    let risk = try #require(impact["risk"] as? [String: Any])
    #expect(risk["level"] as? String == "medium" && risk["answers"] as? String == "medium", "\(risk)")
    #expect(risk["memory"] as? String == "low")
    #expect((risk["instruction_tokens"] as? Int ?? 0) > 100)
    // More than the memory there is, and a window shorter than an answer, are said in words.
    let tight = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2, "HEARTH_MEMORY_LIMIT": "150MiB"])
    let risky = try await tight.run(["models", "settings", "preview", "--preset", "custom", "--context", "512"])
    #expect(risky.standardOutput.contains("risk                high"), "\(risky.standardOutput)")
    #expect(risky.standardOutput.contains("it may not load"))
    #expect(risky.standardOutput.contains("answers would be cut short"))

    #expect(try await hearth.run(["models", "settings", "apply", "--preset", "efficient"]).status == 0)
    let validated = try await hearth.run(["models", "settings", "validate"])
    #expect(validated.status == 0, "\(validated.standardOutput) \(validated.standardError)")
    #expect(validated.standardOutput.contains("wanted 1024, llama.cpp has 1024 — ok"))
    let tested = try await hearth.run(["models", "settings", "test"])
    #expect(tested.status == 0, "\(tested.standardError)")
    #expect(tested.standardOutput.contains("tokens/s"))
    #expect(try await hearth.run(["models", "settings", "show"]).standardOutput.contains("latest test"))

    // Reading ahead is a setting of its own: kept across presets until turned off.
    #expect(try await hearth.run(["models", "settings", "apply", "--prefetch"]).status == 0)
    #expect(try await hearth.run(["models", "settings", "apply", "--preset", "balanced"]).status == 0)
    #expect(try await hearth.run(["models", "settings", "show"]).standardOutput.contains("prefetch       yes"))
    #expect(try await hearth.run(["models", "settings", "apply", "--no-prefetch"]).status == 0)
    #expect(try await hearth.run(["models", "settings", "show"]).standardOutput.contains("prefetch       no"))

    let refused = try await hearth.run(["models", "settings", "apply", "--threads", "999"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("threads"))
    #expect(try await hearth.run(["models", "settings", "apply", "--context", "1000"]).status == 0)
    let differs = try await hearth.run(["models", "settings", "validate"])
    #expect(differs.status == 1)
    #expect(differs.standardOutput.contains("wanted 1000, llama.cpp has 1024 — differs"))
  }
}
