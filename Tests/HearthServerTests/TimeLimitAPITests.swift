import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import NIOHTTP1
import Testing

@testable import HearthEngine
@testable import HearthServer

@Suite("Answers from the web app and the API stop at the time limit", .heavy)
struct TimeLimitAPITests {
  /// SmolLM2 writes several hundred tokens to this: seconds on one thread.
  static let counting = "Write a long story about a dragon who learns to bake bread, at least two thousand words."

  @Test func theyKeepWhatWasSaidAndThreeInARowFreeTheModel() async throws {
    let settings = ChatSettings(preset: .precise, maxTokens: 4000, timeLimit: 1)
    // A model of the test's own: the third time-out lets it go.
    try await LiveServer.with(settings: settings, modelPath: TestModels.smolLM2) { server in
      let saved = try await server.request(.GET, "/api/settings")
      #expect(saved.json?["time_limit"]?.numberValue == 1)
      for round in 1...3 {
        // Each in a chat of its own: after a cut answer, the same question is answered in a word.
        let session = try await AppAPITests.newSession(server)
        let events = try await AppAPITests.turn(server, session: session, text: Self.counting)
        let done = try #require(events.last { $0.name == "done" })
        let message = try AppAPITests.decode(done.data)["message"]
        #expect(
          message?["state"]?.stringValue == "timed_out", "round \(round): \(message?["content"]?.stringValue ?? "")")
        #expect(message?["stop_reason"]?.stringValue == "timeout", "round \(round)")
        // The first reads the whole prompt inside its second; the later ones find it ready and write.
        if round > 1 { #expect(message?["content"]?.stringValue?.isEmpty == false, "round \(round)") }
        #expect((server.engine.model == nil) == (round == 3), "round \(round)")
      }
      #expect(try server.database.telemetry(kinds: [.unload]).map(\.detail) == ["3 timeouts in a row"])
      // The API answers under the same limit (loading the model again first) and says the answer was cut.
      let response = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":[{"role":"user","content":"\#(Self.counting)"}],"max_tokens":4000}"#)
      #expect(response.status == 200, "\(response.body)")
      let choice = response.json?["choices"]?.arrayValue?.first
      #expect(choice?["finish_reason"]?.stringValue == "length", "\(response.body)")
      #expect(server.engine.model != nil)
      // A limit the page cannot keep is refused by name.
      var wrong = settings
      wrong.timeLimit = -1
      let body = String(decoding: try JSONEncoder().encode(wrong), as: UTF8.self)
      let refused = try await server.request(.PUT, "/api/settings", body: body)
      #expect(refused.status == 400)
      #expect(refused.body.contains("time limit"), "\(refused.body)")
    }
  }

  @Test func settingsSavedBeforeTheLimitExistedGetTheDefault() throws {
    let old =
      #"{"preset":"precise","temperature":0,"top_k":40,"top_p":0.95,"min_p":0.05,"repeat_penalty":1,"max_tokens":512,"show_thinking":true}"#
    let settings = try JSONDecoder().decode(ChatSettings.self, from: Data(old.utf8))
    #expect(settings.timeLimit == ChatSettings.defaultTimeLimit)
    #expect(settings.generationOptions.timeout == .seconds(300))
    var none = settings
    none.timeLimit = 0
    #expect(none.generationOptions.timeout == nil)
    #expect(throws: InvalidParameterError.self) {
      var wrong = settings
      wrong.timeLimit = .infinity
      try wrong.validate()
    }
  }
}
