import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

/// Prompt-lookup drafts through `/v1/chat/completions` with the real model: a request that gives a text to work
/// on is drafted by default, `speculative.n_max` sets or stops it, and the answer is the plain one.
@Suite("Drafted answers through the API with the real model", .heavy)
struct SpeculationAPITests {
  static let given =
    "Fix the typos and give me the whole text back: Dear Mrs Patel, thank you for you're letter of the 3rd. I am afraid the parcel was not deliverd because the adress was incomplete. We will send it agian on Monday morning."

  private func ask(_ server: LiveServer, _ content: String, _ extra: String = "") async throws -> (String, JSONValue?) {
    let body =
      #"{"messages":[{"role":"user","content":\#(try OpenAICompatibilityTests.quoted(content))}],"temperature":0,"max_tokens":80,"stream":true,"stream_options":{"include_usage":true},"timings_per_token":true\#(extra)}"#
    let events = try await OpenAICompatibilityTests.events(server, "/v1/chat/completions", body)
    let text = events.compactMap { $0["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue }.joined()
    return (text, events.last?["timings"])
  }

  @Test func aGivenTextIsDraftedAndAnsweredAsWithoutDrafts() async throws {
    #expect(Self.given.count >= DraftPolicy.givenTextLength)
    try await LiveServer.routed { server in
      // The first answer starts from the prompt read in one large batch, whose last logits differ a little from
      // that token read alone (BatchArithmeticTests); the two compared both start from the cached prompt.
      _ = try await ask(server, Self.given, #","speculative.n_max":0"#)
      let (drafted, draftedTimings) = try await ask(server, Self.given)
      let (plain, plainTimings) = try await ask(server, Self.given, #","speculative.n_max":0"#)
      #expect(drafted == plain)
      #expect(drafted.contains("Patel"), "\(drafted)")
      let tried = try #require(draftedTimings?["draft_n"]?.numberValue)
      let kept = try #require(draftedTimings?["draft_n_accepted"]?.numberValue)
      #expect(tried > 0 && kept > 0 && kept <= tried)
      #expect(plainTimings?["draft_n"] == nil && plainTimings?["predicted_n"] != nil)
      // A short question gives nothing to copy: no drafts unless asked for.
      let (_, questionTimings) = try await ask(server, "What is the capital of France?")
      #expect(questionTimings?["draft_n"] == nil)
      let refused = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":[{"role":"user","content":"Hi"}],"speculative.n_max":17}"#)
      #expect(refused.status == 400)
      #expect(refused.json?["error"]?["param"]?.stringValue == "speculative.n_max", "\(refused.body)")
    }
  }
}

/// Text a JSON schema forces, through `/v1/chat/completions` with the real model: evaluated in one batch by
/// default (counted in `timings.forced_n`), one per step or sampled when `forced_spans` says, refused by name
/// when it says anything else.
@Suite("Forced spans through the API with the real model", .heavy)
struct ForcedSpansAPITests {
  private func ask(_ server: LiveServer, _ extra: String = "") async throws -> (String, JSONValue?) {
    let format =
      #"{"type":"json_schema","json_schema":{"name":"reminder","schema":{"type":"object","properties":{"title":{"type":"string","maxLength":40},"priority":{"enum":["low","normal","high"]}},"required":["title","priority"]}}}"#
    let body =
      #"{"messages":[{"role":"user","content":"Remind me to call Mum, high priority."}],"temperature":0,"max_tokens":60,"stream":true,"timings_per_token":true,"response_format":\#(format)\#(extra)}"#
    let events = try await OpenAICompatibilityTests.events(server, "/v1/chat/completions", body)
    let text = events.compactMap { $0["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue }.joined()
    return (text, events.last?["timings"])
  }

  @Test func forcedSpansAreOnByDefaultAndSetByName() async throws {
    try await LiveServer.routed { server in
      let (batched, batchedTimings) = try await ask(server)
      let (stepwise, stepwiseTimings) = try await ask(server, #","forced_spans":"stepwise""#)
      let (sampled, sampledTimings) = try await ask(server, #","forced_spans":false"#)
      for text in [batched, stepwise, sampled] {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["title"]?.stringValue != nil && value["priority"]?.stringValue != nil, "\(text)")
      }
      #expect(stepwise == batched)
      let forced = try #require(batchedTimings?["forced_n"]?.numberValue)
      #expect(forced >= 4)
      #expect(stepwiseTimings?["forced_n"]?.numberValue == forced)
      #expect(sampledTimings?["forced_n"] == nil)
      let refused = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":[{"role":"user","content":"Hi"}],"forced_spans":"fast"}"#)
      #expect(refused.status == 400)
      #expect(refused.body.contains("forced_spans"), "\(refused.body)")
      // Forced text has no log probabilities: asking for both is refused, not half done.
      let both = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":[{"role":"user","content":"Hi"}],"logprobs":true,"forced_spans":"stepwise"}"#)
      #expect(both.status == 400)
      #expect(both.json?["error"]?["param"]?.stringValue == "forced_spans", "\(both.body)")
    }
  }
}
