import Foundation
import HearthCore
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Several tool calls in one answer: parallel_tool_calls and disable_parallel_tool_use, in process")
struct ParallelToolCallTests {
  /// A model that answers with two calls, whatever it is allowed: what the server returns is what it honours.
  static let twoCalls = ScriptedChatModel(pieces: [
    #"<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>"#, "\n",
    #"<tool_call>{"name":"get_weather","arguments":{"city":"Rome"}}</tool_call>"#,
  ])
  static let tools =
    #"[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]"#

  static func chat(_ extra: String) -> String {
    #"{"model":"scripted","messages":[{"role":"user","content":"Weather in Paris and Rome?"}],"tools":\#(tools)\#(extra)}"#
  }

  static func dataLines(_ body: String) -> [JSONValue] {
    body.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("data: "), !line.hasSuffix("[DONE]") else { return nil }
      return try? JSONDecoder().decode(JSONValue.self, from: Data(line.dropFirst(6).utf8))
    }
  }

  @Test func chatCompletionsReturnEveryCallUnlessParallelCallsAreTurnedOff() async throws {
    try await LiveServer.inProcess(model: Self.twoCalls) { server in
      let both = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(""))
      #expect(both.status == 200, "\(both.body)")
      let calls = both.json?["choices"]?.arrayValue?.first?["message"]?["tool_calls"]?.arrayValue ?? []
      #expect(calls.map { $0["function"]?["arguments"]?.stringValue } == [#"{"city":"Paris"}"#, #"{"city":"Rome"}"#])
      #expect(Set(calls.compactMap { $0["id"]?.stringValue }).count == 2)
      #expect(both.json?["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue == "tool_calls")

      let one = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#","parallel_tool_calls":false"#))
      let single = one.json?["choices"]?.arrayValue?.first?["message"]?["tool_calls"]?.arrayValue ?? []
      #expect(single.map { $0["function"]?["arguments"]?.stringValue } == [#"{"city":"Paris"}"#])

      let streamed = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(#","stream":true"#))
      let deltas = Self.dataLines(streamed.body).flatMap {
        $0["choices"]?.arrayValue?.first?["delta"]?["tool_calls"]?.arrayValue ?? []
      }
      #expect(deltas.map { $0["index"]?.numberValue } == [0, 1])
      #expect(deltas.map { $0["function"]?["name"]?.stringValue } == ["get_weather", "get_weather"])
    }
  }

  @Test func messagesReturnEveryToolUseUnlessParallelUseIsDisabled() async throws {
    let tools = #"[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]"#
    @Sendable func body(_ choice: String) -> String {
      #"{"model":"scripted","max_tokens":64,"messages":[{"role":"user","content":"Weather?"}],"tools":\#(tools)\#(choice)}"#
    }
    try await LiveServer.inProcess(model: Self.twoCalls) { server in
      let both = try await server.request(.POST, "/v1/messages", body: body(""))
      #expect(both.status == 200, "\(both.body)")
      let uses = (both.json?["content"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "tool_use" }
      #expect(uses.map { $0["input"]?["city"]?.stringValue } == ["Paris", "Rome"])
      #expect(both.json?["stop_reason"]?.stringValue == "tool_use")
      let one = try await server.request(
        .POST, "/v1/messages", body: body(#","tool_choice":{"type":"auto","disable_parallel_tool_use":true}"#))
      let single = (one.json?["content"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "tool_use" }
      #expect(single.map { $0["input"]?["city"]?.stringValue } == ["Paris"])
    }
  }
}
