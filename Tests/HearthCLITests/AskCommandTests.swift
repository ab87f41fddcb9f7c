import Foundation
import HearthTestSupport
import Testing

@Suite("hearth ask, models info and bench, run as a user would", .heavy)
struct AskCommandTests {
  private let hearth = CommandRunner()

  @Test func answersWithTheDefaultModelFromTheDataDirectory() async throws {
    let home = try TestModels.temporaryDirectory()
    let models = home.appendingPathComponent("models")
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: models.appendingPathComponent("SmolLM2-135M-Instruct.Q4_1.gguf").path,
      withDestinationPath: TestModels.smolLM2)
    let runner = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": ""])
    let result = try await runner.run(["ask", "What is the capital of France?", "--temperature", "0"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Paris"))
  }

  @Test func printsJSONWithUsageAndTimings() async throws {
    let result = try await hearth.run([
      "ask", "What is the capital of France?", "--temperature", "0", "--model", TestModels.smolLM2, "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((object["text"] as? String)?.contains("Paris") == true)
    #expect(object["stop_reason"] as? String == "end_of_generation")
    #expect((object["prompt_tokens"] as? Int ?? 0) > 0)
    #expect((object["generated_tokens"] as? Int ?? 0) > 0)
    #expect((object["time_to_first_token_ms"] as? Double ?? 0) > 0)
    #expect((object["prompt_tokens_per_second"] as? Double ?? 0) > 0)
    #expect((object["generation_tokens_per_second"] as? Double ?? 0) > 0)
    #expect(object["model"] as? String == TestModels.smolLM2)
  }

  @Test func aOneShotAskInAutoUsesAReachableRemoteServerAndTheLocalModelWhenItIsAway() async throws {
    let llama = try LlamaServer(model: TestModels.smolLM2)
    defer { llama.stop() }
    let home = try TestModels.temporaryDirectory()
    let environment = ["HEARTH_HOME": home.path, "HEARTH_REMOTE_MODEL": "smol"]
    func provider(_ url: String) async throws -> String? {
      let runner = CommandRunner(environment: environment.merging(["HEARTH_REMOTE_URL": url]) { $1 })
      let result = try await runner.run([
        "ask", "Say hello.", "--provider", "auto", "--temperature", "0", "--max-tokens", "8", "--model",
        TestModels.smolLM2, "--json",
      ])
      #expect(result.status == 0, "\(result.standardError)")
      let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
      return object?["provider"] as? String
    }
    // The command opens, probes, waits out the rest of the 2 s window and asks the server.
    #expect(try await provider(llama.base) == "remote")
    // Nothing listens there: the local model answers, with no wait for a window.
    #expect(try await provider("http://127.0.0.1:9/v1") == "local")
  }

  @Test func aLaterAskInAnotherProfileStartsAfterTheSavedInstructions() async throws {
    let prefixes = try TestModels.temporaryDirectory()
    func ask() async throws -> [String: Any] {
      // A new profile each time: only Hearth's own instructions are shared, never a profile's data.
      let runner = CommandRunner(environment: [
        "HEARTH_HOME": try TestModels.temporaryDirectory().path, "HEARTH_PREFIX_CACHE": prefixes.path,
      ])
      let result = try await runner.run([
        "ask", "What is the capital of France?", "--temperature", "0", "--model", TestModels.smolLM2, "--json",
      ])
      #expect(result.status == 0, "\(result.standardError)")
      return try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }
    let first = try await ask()
    #expect(first["reused_prompt_tokens"] as? Int == 0)
    let second = try await ask()
    let reused = try #require(second["reused_prompt_tokens"] as? Int)
    let prompt = try #require(second["prompt_tokens"] as? Int)
    // The instructions are most of the prompt; the day's sections and the question are read again.
    #expect(reused > prompt / 2 && reused < prompt, "\(reused) of \(prompt)")
    #expect(second["text"] as? String == first["text"] as? String)
    let kept = try FileManager.default.contentsOfDirectory(atPath: prefixes.path)
    #expect(kept.count == 1 && kept[0].hasSuffix(".kv"), "\(kept)")
  }

  @Test func readsThePromptFromStandardInput() async throws {
    let result = try await hearth.run(
      ["ask", "--temperature", "0", "--model", TestModels.smolLM2], input: "What is the capital of France?\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Paris"))
  }

  @Test func saysWhenTheAnswerWasCutShort() async throws {
    let result = try await hearth.run([
      "ask", "Tell me a long story.", "--model", TestModels.smolLM2, "--max-tokens", "3", "--seed", "1",
    ])
    #expect(result.status == 0)
    #expect(result.standardError.contains("maximum number of new tokens"))
  }

  @Test func describesAModelFile() async throws {
    let text = try await hearth.run(["models", "info", TestModels.smolLM2])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains("architecture      llama"))
    #expect(text.standardOutput.contains("context length    8192"))
    let json = try await hearth.run(["models", "info", TestModels.gemma3, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["architecture"] as? String == "gemma3")
    #expect(object["has_chat_template"] as? Bool == false)
  }

  @Test func benchmarksAgainstLlamaCppTools() async throws {
    let result = try await hearth.run(
      [
        "bench", "--model", TestModels.smolLM2, "--prompt-tokens", "64", "--gen-tokens", "16", "--rounds",
        "2", "--launches", "1", "--json",
      ], timeout: .seconds(600))
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    for key in [
      "prompt_ratio", "generation_ratio", "hearth_prompt_tps", "llama_bench_prompt_tps", "hearth_generation_tps",
      "llama_bench_generation_tps", "hearth_ask_first_token_ms", "llama_completion_first_token_ms",
    ] {
      #expect((object[key] as? Double ?? 0) > 0, "\(key)")
    }
  }

  /// Two event requests through Hearth's API and llama-server: both answer, and Hearth's answers follow the schema.
  @Test func benchesSchemaAnswersAgainstLlamaServer() async throws {
    let result = try await hearth.run(
      ["bench", "structured", "--model", TestModels.smolLM2, "--requests", "2", "--threads", "2", "--json"],
      timeout: .seconds(600))
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    for key in [
      "hearth_tokens_per_second", "hearth_unforced_tokens_per_second", "llama_server_tokens_per_second", "speed_ratio",
      "unforced_speed_ratio", "completion_speed_up", "forced_speed_up", "forced_share",
    ] {
      #expect((object[key] as? Double ?? 0) > 0, "\(key)")
    }
    #expect(object["requests"] as? Int == 2)
    #expect(object["hearth_valid"] as? Int == 2, "\(result.standardOutput)")
    #expect(object["hearth_unforced_valid"] as? Int == 2, "\(result.standardOutput)")
    #expect(object["differing_values"] is [Int])
    #expect(object["differing_from_stepwise"] as? [Int] == [], "batched and one per step write the same")
    let answers = try #require(object["answers"] as? [[String: Any]])
    #expect(answers.count == 2 && answers.allSatisfy { $0["schema"] as? String == "event" })
    for answer in answers {
      let hearth = try #require(answer["hearth"] as? [String: Any])
      #expect((hearth["forced_tokens"] as? Int ?? 0) > 0, "an event's keys are forced")
      let text = try #require(hearth["text"] as? String)
      let event = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect(Set(event.keys) == ["title", "date", "start", "end", "place", "attendees"], "\(text)")
    }
  }

  /// Two rewrite tasks and a question: every side answers, and Hearth's drafted answers are its plain ones.
  @Test func benchesRewritesAgainstLlamaServersSpeculation() async throws {
    let result = try await hearth.run(
      [
        "bench", "rewrite", "--model", TestModels.smolLM2, "--tasks", "2", "--questions", "1", "--spec-types",
        "ngram-simple", "--threads", "2", "--json",
      ], timeout: .seconds(600))
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let sides = try #require(object["sides"] as? [[String: Any]])
    #expect(sides.count == 4)
    #expect(sides.allSatisfy { ($0["tokens_per_second"] as? Double ?? 0) > 0 }, "\(sides)")
    #expect(sides.first?["same_text_as_hearth_without_drafts"] as? Int == 2, "\(sides)")
    #expect(object["best_speculation"] as? String == "llama-server --spec-type ngram-simple")
    #expect((object["questions_forced_draft_ratio"] as? Double ?? 0) > 0)
  }
}
