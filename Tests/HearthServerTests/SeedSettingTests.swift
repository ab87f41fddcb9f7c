import Foundation
import HearthCore
import HearthTestSupport
import NIOHTTP1
import Testing

/// The seed of the random sampler as a saved setting (the Settings page's, through `/api/settings`): a seed other
/// than 0 makes the same question come out the same at a temperature that otherwise varies it; another seed gives
/// another answer; 0 (the default, and what settings saved before it read as) picks a new one for every answer.
@Suite("The seed as a saved setting", .heavy)
struct SeedSettingTests {
  /// The answer a new chat gets to `text`.
  private static func answer(_ server: LiveServer, _ text: String) async throws -> String {
    let id = try await AppAPITests.newSession(server)
    let events = try await TurnInProcessTests.turn(server, session: id, text: text)
    let done = try TurnInProcessTests.data(events.last { $0.name == "done" })
    return try #require(done["message"]?["content"]?.stringValue)
  }

  /// The settings `current` with `seed` in place of theirs, as JSON text.
  private static func with(_ current: JSONValue, seed: JSONValue) -> String {
    JSONValue.object((current.objectMembers ?? []).map { ($0.key, $0.key == "seed" ? seed : $0.value) }).jsonText
  }

  @Test func aSavedSeedRepeatsAnAnswerAndAnotherSeedChangesIt() async throws {
    let settings = ChatSettings(preset: .creative, maxTokens: 32, seed: 7)
    try await LiveServer.with(settings: settings) { server in
      #expect(try await server.request(.GET, "/api/settings").json?["seed"]?.numberValue == 7)
      let question = "Write one sentence about a cat on a boat."
      // The first answer reads the whole prompt at once; later ones find Hearth's instructions already read and
      // read only the rest, which llama.cpp computes in other batches, a few last bits apart: at a temperature
      // of 1 that alone can change a word. Answers along the same path come out the same.
      _ = try await Self.answer(server, question)
      let first = try await Self.answer(server, question)
      let again = try await Self.answer(server, question)
      #expect(first == again, "the same seed gave \(first) and then \(again)")
      #expect(!first.isEmpty)

      let current = try #require(try await server.request(.GET, "/api/settings").json)
      let saved = try await server.request(.PUT, "/api/settings", body: Self.with(current, seed: .number(8)))
      #expect(saved.status == 200 && saved.json?["seed"]?.numberValue == 8, "\(saved.body)")
      let other = try await Self.answer(server, question)
      #expect(other != first, "seeds 7 and 8 gave the same answer: \(other)")

      // Out of range is refused by name; nothing is saved.
      for bad in [JSONValue.number(-1), .number(4_294_967_296), .string("7")] {
        let refused = try await server.request(.PUT, "/api/settings", body: Self.with(current, seed: bad))
        #expect(refused.status == 400, "\(bad): \(refused.body)")
        #expect(refused.json?["error"]?["param"]?.stringValue == "seed", "\(refused.body)")
      }
      #expect(try await server.request(.GET, "/api/settings").json?["seed"]?.numberValue == 8)
    }
  }

  @Test func settingsSavedBeforeTheSeedReadAsANewSeedEveryAnswer() throws {
    let old =
      #"{"preset":"balanced","temperature":0.7,"top_k":40,"top_p":0.9,"min_p":0.05,"repeat_penalty":1.1,"#
      + #""max_tokens":512,"show_thinking":true}"#
    let settings = try JSONDecoder().decode(ChatSettings.self, from: Data(old.utf8))
    #expect(settings.seed == 0 && settings.generationOptions.sampling.seed == nil)
    var seeded = settings
    seeded.seed = 42
    #expect(seeded.generationOptions.sampling.seed == 42)
    // A persona's preset keeps the user's seed.
    #expect(seeded.sampled(as: .creative).generationOptions.sampling.seed == 42)
  }
}
