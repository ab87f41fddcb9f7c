import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@Suite("Anthropic's Messages API with the real model, in process", .serialized)
struct MessagesAPITests {
  static let question = #"[{"role":"user","content":"What is the capital of France?"}]"#
  static let model = "SmolLM2-135M-Instruct.Q4_1.gguf"

  static func body(_ fields: String) -> String {
    #"{"model":"\#(model)","messages":\#(question),\#(fields)}"#
  }

  @Test func aWholeMessageHasAnthropicsShape() async throws {
    try await LiveServer.routed { server in
      let reply = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":24,"temperature":0,"system":"Be brief.""#))
      #expect(reply.status == 200, "\(reply.body)")
      let message = try #require(reply.json)
      #expect(message["type"]?.stringValue == "message")
      #expect(message["id"]?.stringValue?.hasPrefix("msg_") == true)
      #expect(message["content"]?.arrayValue?.first?["type"]?.stringValue == "text")
      #expect(message["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("Paris") == true)
      #expect(["end_turn", "max_tokens"].contains(message["stop_reason"]?.stringValue ?? ""))
      #expect(message["stop_sequence"] == .null)
      #expect((message["usage"]?["input_tokens"]?.numberValue ?? 0) > 10)

      let stopped = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":40,"temperature":0,"stop_sequences":["Paris"]"#))
      #expect(stopped.json?["stop_reason"]?.stringValue == "stop_sequence")
      #expect(stopped.json?["stop_sequence"]?.stringValue == "Paris")
    }
  }

  @Test func anOutputFormatHoldsTheAnswerAndACacheBreakpointIsAccepted() async throws {
    try await LiveServer.routed { server in
      let schema = #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#
      let reply = try await server.request(
        .POST, "/v1/messages",
        body: Self.body(
          #""max_tokens":40,"cache_control":{"type":"ephemeral"},"output_config":{"format":{"type":"json_schema","schema":\#(schema)}}"#
        ))
      #expect(reply.status == 200, "\(reply.body)")
      let text = try #require(reply.json?["content"]?.arrayValue?.first?["text"]?.stringValue)
      let answer = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
      #expect(answer["city"]?.stringValue != nil, "\(text)")
      let effort = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":4,"output_config":{"effort":"high"}"#))
      #expect(effort.json?["error"]?["message"]?.stringValue?.contains("output_config.effort") == true)
      let lasting = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":4,"cache_control":{"type":"persistent"}"#))
      #expect(lasting.status == 400)
    }
  }

  @Test func aStreamSendsTheTypedEventsInOrder() async throws {
    try await LiveServer.routed { server in
      let (status, chunks) = try await server.stream(
        "/v1/messages", body: Self.body(#""max_tokens":16,"temperature":0,"stream":true"#))
      #expect(status == 200)
      var parser = EventParser()
      var events: [EventParser.Event] = []
      for try await buffer in chunks { events += parser.feed(String(buffer: buffer)) }
      let names = events.compactMap(\.name)
      #expect(names.first == "message_start")
      #expect(names.last == "message_stop")
      #expect(names.contains("ping"))
      let order = ["content_block_start", "content_block_delta", "content_block_stop", "message_delta"]
      let places = order.map { names.firstIndex(of: $0) ?? -1 }
      #expect(places == places.sorted() && !places.contains(-1), "\(names)")
      // Each event's data names its own type, as the `event:` line does.
      for event in events {
        let data = try JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8))
        #expect(data["type"]?.stringValue == event.name)
      }
    }
  }

  @Test func refusalsAreInAnthropicsShapeAndNameTheField() async throws {
    try await LiveServer.routed { server in
      let missing = try await server.request(
        .POST, "/v1/messages", body: #"{"model":"x","messages":\#(Self.question)}"#)
      #expect(missing.status == 400)
      #expect(missing.json?["type"]?.stringValue == "error")
      #expect(missing.json?["error"]?["type"]?.stringValue == "invalid_request_error")
      let thinking = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":4,"thinking":{"type":"enabled","budget_tokens":1024}"#))
      #expect(thinking.status == 400)
      #expect(thinking.json?["error"]?["message"]?.stringValue?.contains("thinking") == true)
      let image = try await server.request(
        .POST, "/v1/messages",
        body:
          #"{"model":"\#(Self.model)","max_tokens":4,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}]}"#
      )
      #expect(image.status == 400)
      #expect(image.json?["error"]?["message"]?.stringValue?.contains("image") == true)
      let serverTool = try await server.request(
        .POST, "/v1/messages",
        body: Self.body(#""max_tokens":4,"tools":[{"type":"web_search_20250305","name":"web_search"}]"#))
      #expect(serverTool.status == 400)
      // The OpenAI routes keep OpenAI's shape.
      let openAI = try await server.request(.POST, "/v1/chat/completions", body: #"{"messages":[]}"#)
      #expect(openAI.json?["error"]?["param"] != nil)
    }
  }

  @Test func theKeyMayComeAsXAPIKey() async throws {
    let key = "anthropic-key-0123456789"
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: key)) { server in
      let refused = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":4"#), headers: [("x-api-key", "wrong")])
      #expect(refused.status == 401)
      #expect(refused.json?["error"]?["type"]?.stringValue == "authentication_error")
      // Let in: with no model loaded, the answer is the engine's, not the key check's.
      let admitted = try await server.request(
        .POST, "/v1/messages", body: Self.body(#""max_tokens":4"#), headers: [("x-api-key", key)])
      #expect(admitted.status == 503)
    }
  }
}
