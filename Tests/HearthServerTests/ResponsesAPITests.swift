import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@Suite("OpenAI's Responses API with the real model, in process and live", .serialized, .heavy)
struct ResponsesAPITests {
  @Test func aResponseAnswersAndIsContinuedByItsID() async throws {
    try await LiveServer.routed { server in
      let first = try await server.request(
        .POST, "/v1/responses",
        body:
          #"{"input":"What is the capital of France?","temperature":0,"max_output_tokens":24}"#
      )
      #expect(first.status == 200, "\(first.body)")
      let json = try #require(first.json)
      #expect(json["object"]?.stringValue == "response")
      let id = try #require(json["id"]?.stringValue)
      #expect(id.hasPrefix("resp_"))
      let message = try #require(json["output"]?.arrayValue?.first)
      #expect(message["type"]?.stringValue == "message")
      #expect(message["role"]?.stringValue == "assistant")
      let text = try #require(message["content"]?.arrayValue?.first?["text"]?.stringValue)
      #expect(text.contains("Paris"), "\(text)")
      #expect(["completed", "incomplete"].contains(json["status"]?.stringValue ?? ""))
      #expect(json["instructions"] == .null)
      // Instructions go before the conversation as its system message.
      let instructed = try await server.request(
        .POST, "/v1/responses",
        body: #"{"input":"What is the capital of France?","instructions":"Answer in one word.","max_output_tokens":2}"#)
      #expect(instructed.json?["instructions"]?.stringValue == "Answer in one word.")
      #expect(
        (instructed.json?["usage"]?["input_tokens"]?.numberValue ?? 0)
          > (json["usage"]?["input_tokens"]?.numberValue ?? 0) + 3)
      let usage = try #require(json["usage"])
      #expect((usage["input_tokens"]?.numberValue ?? 0) > 5)
      #expect(
        usage["total_tokens"]?.numberValue
          == (usage["input_tokens"]?.numberValue ?? 0) + (usage["output_tokens"]?.numberValue ?? 0))

      // The next turn sees the stored conversation: its prompt holds the first question and answer.
      let next = try await server.request(
        .POST, "/responses",
        body: #"{"input":"And of Italy?","previous_response_id":"\#(id)","temperature":0,"max_output_tokens":8}"#)
      #expect(next.status == 200, "\(next.body)")
      let alone = try await server.request(
        .POST, "/responses", body: #"{"input":"And of Italy?","temperature":0,"max_output_tokens":8}"#)
      let continuedInput = try #require(next.json?["usage"]?["input_tokens"]?.numberValue)
      let aloneInput = try #require(alone.json?["usage"]?["input_tokens"]?.numberValue)
      #expect(continuedInput > aloneInput + 10)
      #expect(next.json?["previous_response_id"]?.stringValue == id)

      let unknown = try await server.request(
        .POST, "/v1/responses", body: #"{"input":"Hi","previous_response_id":"resp_nothing"}"#)
      #expect(unknown.status == 400)
      #expect(unknown.json?["error"]?["param"]?.stringValue == "previous_response_id")

      // A response not stored cannot be continued; a stored one can be forgotten.
      let unstored = try await server.request(
        .POST, "/v1/responses", body: #"{"input":"Hi","store":false,"max_output_tokens":2}"#)
      let unstoredID = try #require(unstored.json?["id"]?.stringValue)
      let afterUnstored = try await server.request(
        .POST, "/v1/responses", body: #"{"input":"Hi","previous_response_id":"\#(unstoredID)"}"#)
      #expect(afterUnstored.status == 400)
      #expect(try await server.request(.DELETE, "/v1/responses/\(id)").status == 200)
      #expect(try await server.request(.DELETE, "/v1/responses/\(id)").status == 404)
    }
  }

  @Test func aStreamedResponseSendsOpenAIsEventsInOrder() async throws {
    try await LiveServer.with { server in
      let (status, chunks) = try await server.stream(
        "/v1/responses",
        body:
          #"{"input":[{"role":"user","content":[{"type":"input_text","text":"What is the capital of France?"}]}],"stream":true,"temperature":0,"max_output_tokens":16}"#
      )
      #expect(status == 200)
      var parser = EventParser()
      var events: [EventParser.Event] = []
      for try await buffer in chunks { events += parser.feed(String(buffer: buffer)) }
      let types = events.compactMap(\.name)
      let objects = events.compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.data.utf8)) }
      #expect(objects.compactMap { $0["type"]?.stringValue } == types)
      #expect(
        types.filter { $0 != "response.output_text.delta" } == [
          "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
          "response.output_text.done", "response.content_part.done", "response.output_item.done",
          types.last ?? "",
        ])
      #expect(["response.completed", "response.incomplete"].contains(types.last ?? ""))
      #expect(objects.compactMap { $0["sequence_number"]?.numberValue } == (0..<objects.count).map(Double.init))
      let deltas = objects.filter { $0["type"]?.stringValue == "response.output_text.delta" }
      #expect(deltas.count > 1)
      let text = deltas.compactMap { $0["delta"]?.stringValue }.joined()
      #expect(text.contains("Paris"))
      let done = try #require(objects.first { $0["type"]?.stringValue == "response.output_text.done" })
      #expect(done["text"]?.stringValue == text)
      let final = try #require(objects.last?["response"])
      #expect(final["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"]?.stringValue == text)
    }
  }

  @Test func aSchemaFormatHoldsTheAnswerAndUnofferedFieldsAreRefused() async throws {
    try await LiveServer.routed { server in
      let schema = #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#
      let reply = try await server.request(
        .POST, "/v1/responses",
        body:
          #"{"input":"Name the capital of France.","max_output_tokens":30,"text":{"format":{"type":"json_schema","name":"c","schema":\#(schema),"strict":true}}}"#
      )
      #expect(reply.status == 200, "\(reply.body)")
      let text = try #require(
        reply.json?["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"]?.stringValue)
      let answer = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
      #expect(answer["city"]?.stringValue != nil)
      #expect(reply.json?["text"]?["format"]?["type"]?.stringValue == "json_schema")
      let cases: [(body: String, parameter: String)] = [
        (#"{"input":"Hi","tools":[]}"#, "tools"),
        (#"{"input":"Hi","reasoning":{"effort":"low"}}"#, "reasoning"),
        (#"{"input":"Hi","metadata":{"a":"b"}}"#, "metadata"),
        (#"{"input":"Hi","text":{"verbosity":"low"}}"#, "text.verbosity"),
        (#"{"input":[{"role":"user","content":[{"type":"input_image","image_url":"x"}]}]}"#, "input[0].content[0]"),
        (#"{"input":[{"type":"function_call_output","call_id":"c","output":"x"}]}"#, "input[0].call_id"),
        (#"{"input":[{"role":"wizard","content":"x"}]}"#, "input[0].role"),
        (#"{"input":"Hi","text":{"format":{"type":"xml"}}}"#, "text.format.type"),
        (#"{"input":""}"#, "input"),
      ]
      for item in cases {
        let refused = try await server.request(.POST, "/v1/responses", body: item.body)
        #expect(refused.status == 400, "\(item.body)")
        #expect(refused.json?["error"]?["param"]?.stringValue == item.parameter, "\(item.body) → \(refused.body)")
      }
    }
  }
}
