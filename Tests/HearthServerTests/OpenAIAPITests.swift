import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import LlamaKit
import NIOCore
import NIOHTTP1
import Testing

@Suite("OpenAI-compatible API with the real model, in process and through the live server", .serialized, .heavy)
struct OpenAIAPITests {
  static let capitalQuestion = #"{"role":"user","content":"What is the capital of France?"}"#

  @Test func aCompletionAnswersWithUsage() async throws {
    try await LiveServer.routed { server in
      let reply = try await server.request(
        .POST, "/v1/chat/completions",
        body:
          #"{"model":"SmolLM2-135M-Instruct","messages":[\#(Self.capitalQuestion)],"temperature":0,"max_tokens":30}"#)
      #expect(reply.status == 200)
      let json = try #require(reply.json)
      #expect(json["object"]?.stringValue == "chat.completion")
      let choice = try #require(json["choices"]?.arrayValue?.first)
      #expect(choice["message"]?["role"]?.stringValue == "assistant")
      #expect(choice["message"]?["content"]?.stringValue?.contains("Paris") == true)
      #expect(["stop", "length"].contains(choice["finish_reason"]?.stringValue ?? ""))
      let usage = try #require(json["usage"])
      let prompt = try #require(usage["prompt_tokens"]?.numberValue)
      let completion = try #require(usage["completion_tokens"]?.numberValue)
      #expect(prompt > 5 && completion > 0)
      #expect(usage["total_tokens"]?.numberValue == prompt + completion)
    }
  }

  @Test func streamingSendsChunksAsTheyAreGenerated() async throws {
    try await LiveServer.with { server in
      let request =
        #"{"messages":[\#(Self.capitalQuestion)],"temperature":0,"max_tokens":24,"stream":true,"stream_options":{"include_usage":true}}"#
      let (status, body) = try await server.stream("/v1/chat/completions", body: request)
      #expect(status == 200)
      var parser = EventParser()
      var reads: [(at: ContinuousClock.Instant, events: [EventParser.Event])] = []
      for try await buffer in body {
        reads.append((ContinuousClock.now, parser.feed(String(buffer: buffer))))
      }
      let events = reads.flatMap(\.events)
      #expect(events.last?.data == "[DONE]")
      let chunks = events.dropLast().compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.data.utf8)) }
      #expect(chunks.first?["choices"]?.arrayValue?.first?["delta"]?["role"]?.stringValue == "assistant")
      #expect(chunks.allSatisfy { $0["object"]?.stringValue == "chat.completion.chunk" })
      let finish = chunks.compactMap { $0["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue }
      #expect(finish.count == 1)
      let usageChunk = try #require(chunks.last)
      #expect(usageChunk["choices"]?.arrayValue?.isEmpty == true)
      #expect((usageChunk["usage"]?["completion_tokens"]?.numberValue ?? 0) > 0)
      let text = chunks.compactMap { $0["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue }.joined()
      #expect(text.contains("Paris"))
      // Not buffered: the content arrived over several reads spread in time, not in one piece at the end.
      let contentReads = reads.filter { read in
        read.events.contains { event in
          let chunk = try? JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8))
          return chunk?["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue?.isEmpty == false
        }
      }
      if let first = contentReads.first, let last = contentReads.last {
        #expect(last.at - first.at > .milliseconds(10))
      }

      // The same greedy request without streaming gives the same text.
      let whole = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[\#(Self.capitalQuestion)],"temperature":0,"max_tokens":24}"#
      )
      #expect(whole.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue == text)
    }
  }

  @Test func aStopSequenceEndsTheAnswerBeforeIt() async throws {
    try await LiveServer.routed { server in
      let body = #"{"messages":[\#(Self.capitalQuestion)],"temperature":0,"max_tokens":30}"#
      let full = try #require(
        try await server.request(.POST, "/v1/chat/completions", body: body).json?["choices"]?.arrayValue?.first?[
          "message"]?["content"]?.stringValue)
      let stop = try #require(full.range(of: "Paris"))
      let stopped = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":[\#(Self.capitalQuestion)],"temperature":0,"max_tokens":30,"stop":["Paris"]}"#)
      let choice = try #require(stopped.json?["choices"]?.arrayValue?.first)
      #expect(choice["message"]?["content"]?.stringValue == String(full[..<stop.lowerBound]))
      #expect(choice["finish_reason"]?.stringValue == "stop")
    }
  }

  @Test func aJSONSchemaConstrainsTheAnswer() async throws {
    try await LiveServer.routed { server in
      let schema =
        #"{"type":"object","properties":{"city":{"type":"string"},"population":{"type":"integer"},"capital":{"type":"boolean"}},"required":["city","population","capital"]}"#
      let reply = try await server.request(
        .POST, "/v1/chat/completions",
        body:
          #"{"messages":[{"role":"user","content":"Describe Paris as JSON."}],"temperature":0,"max_tokens":80,"response_format":{"type":"json_schema","json_schema":{"name":"city","schema":\#(schema)}}}"#
      )
      #expect(reply.status == 200)
      let content = try #require(reply.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue)
      let object = try JSONDecoder().decode(JSONValue.self, from: Data(content.utf8))
      #expect(object["city"]?.stringValue != nil)
      let population = try #require(object["population"]?.numberValue)
      #expect(population == population.rounded())
      if case .bool? = object["capital"] {} else { Issue.record("capital is not a boolean in \(content)") }
    }
  }

  @Test func malformedRequestsGetOpenAIErrors() async throws {
    try await LiveServer.routed { server in
      let cases: [(body: String, status: Int, mentions: String)] = [
        ("{not json", 400, "malformed"),
        (#"{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}"#, 404, "no model is named"),
        (#"{"model":"all-MiniLM-L6-v2","messages":[{"role":"user","content":"hi"}]}"#, 400, "not a chat model"),
        (#"{"model":"x"}"#, 400, "messages"),
        (#"{"messages":[]}"#, 400, "messages"),
        (#"{"temperature":0.5}"#, 400, "messages"),
        (#"{"messages":"hello"}"#, 400, "messages"),
        (#"{"messages":[{"role":"wizard","content":"hi"}]}"#, 400, "role"),
        (#"{"messages":[{"role":"user","content":"hi"}],"temperature":9}"#, 400, "temperature"),
        (#"{"messages":[{"role":"user","content":"hi"}],"max_tokens":0}"#, 400, "max_tokens"),
        (#"{"messages":[{"role":"user","content":"hi"}],"repeat_penalty":0}"#, 400, "repeat penalty"),
        (#"{"messages":[{"role":"user","content":"hi"}],"top_k":-1}"#, 400, "top-k"),
        (#"{"messages":[{"role":"user","content":"hi"}],"min_p":2}"#, 400, "min-p"),
        (#"{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"xml"}}"#, 400, "response_format"),
        (
          #"{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"schema":{"$ref":"http://x/y"}}}}"#,
          400, "$ref"
        ),
        ("", 400, "empty"),
      ]
      for item in cases {
        let reply = try await server.request(.POST, "/v1/chat/completions", body: item.body)
        #expect(reply.status == item.status, "\(item.body)")
        let error = try #require(reply.json?["error"], "\(item.body) → \(reply.body)")
        #expect(error["message"]?.stringValue?.contains(item.mentions) == true, "\(item.body) → \(reply.body)")
        #expect(error["type"]?.stringValue != nil)
      }
      let wrongMethod = try await server.request(.GET, "/v1/chat/completions")
      #expect(wrongMethod.status == 404 || wrongMethod.status == 405)
      #expect(wrongMethod.json?["error"] != nil)
    }
  }

  @Test func aPromptLongerThanTheContextIsRefused() async throws {
    try await LiveServer.routed { server in
      let long = String(repeating: "word ", count: 3000)
      let reply = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[{"role":"user","content":"\#(long)"}]}"#)
      #expect(reply.status == 400)
      #expect(reply.json?["error"]?["message"]?.stringValue?.contains("context") == true)
    }
  }

  @Test func modelsListsTheLoadedModel() async throws {
    try await LiveServer.routed { server in
      let reply = try await server.request(.GET, "/v1/models")
      #expect(reply.json?["object"]?.stringValue == "list")
      #expect(reply.json?["data"]?.arrayValue?.first?["id"]?.stringValue == "SmolLM2-135M-Instruct.Q4_1.gguf")
    }
  }

  @Test func eightConcurrentRequestsAllComplete() async throws {
    try await LiveServer.with { server in
      let replies = try await withThrowingTaskGroup(of: LiveServer.Reply.self) { group in
        for index in 0..<8 {
          group.addTask {
            try await server.request(
              .POST, "/v1/chat/completions",
              body:
                #"{"messages":[{"role":"user","content":"Name a colour (\#(index))."}],"max_tokens":12,"seed":\#(index)}"#
            )
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(replies.count == 8)
      for reply in replies {
        #expect(reply.status == 200, "\(reply.body)")
        #expect(reply.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue?.isEmpty == false)
      }
    }
  }

  @Test func leavingAStreamStopsItsGeneration() async throws {
    try await LiveServer.with { server in
      let request =
        #"{"messages":[{"role":"user","content":"Count from 1 to 500, one number per line."}],"temperature":0,"max_tokens":1500,"stream":true}"#
      let reader = Task {
        let (_, body) = try await server.stream("/v1/chat/completions", body: request)
        var seen = 0
        for try await _ in body {
          seen += 1
          if seen == 5 { break }
        }
        return seen
      }
      #expect(try await reader.value == 5)
      let session = try await LiveServer.sharedSession()
      try await waitUntil(seconds: 10) { session.lastRecord?.stopReason == .cancelled }
      let record = try #require(session.lastRecord)
      #expect(record.stopReason == .cancelled)
      #expect(record.usage.generatedTokens < 1500)
    }
  }
}

extension OpenAIAPITests {
  @Test func leavingAWholeAnswerRequestStopsItsGeneration() async throws {
    try await LiveServer.with { server in
      let session = try await LiveServer.sharedSession()
      let short = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[\#(Self.capitalQuestion)],"max_tokens":3}"#)
      #expect(short.status == 200)
      #expect(session.lastRecord?.stopReason == .maxTokens)

      let long =
        #"{"messages":[{"role":"user","content":"Count from 1 to 500, one number per line."}],"temperature":0,"max_tokens":1500,"ignore_eos":true}"#
      let asking = Task { try await server.request(.POST, "/v1/chat/completions", body: long) }
      try await Task.sleep(for: .seconds(2))
      asking.cancel()
      _ = try? await asking.value
      try await waitUntil(seconds: 10) { session.lastRecord?.stopReason == .cancelled }
      let record = try #require(session.lastRecord)
      #expect(record.stopReason == .cancelled)
      #expect(record.usage.generatedTokens > 0 && record.usage.generatedTokens < 1500)

      let after = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[\#(Self.capitalQuestion)],"max_tokens":3}"#)
      #expect(after.status == 200)
    }
  }
}

extension OpenAIAPITests {
  @Test func aStreamWaitingInLineLeavesItWhenItsClientDoes() async throws {
    try await LiveServer.with { server in
      @Sendable func depth() async throws -> Int? {
        try await server.request(.GET, "/api/diagnostics").json?["queue_depth"]?.numberValue.map { Int($0) }
      }
      let long =
        #"{"messages":[{"role":"user","content":"Count from 1 to 500, one number per line."}],"temperature":0,"max_tokens":1500,"ignore_eos":true}"#
      let holding = Task { try await server.request(.POST, "/v1/chat/completions", body: long) }
      try await waitUntil(seconds: 10) { try await depth() == 1 }

      let streamed = #"{"messages":[\#(Self.capitalQuestion)],"max_tokens":8,"stream":true}"#
      let waiting = Task {
        let (_, body) = try await server.stream("/v1/chat/completions", body: streamed)
        for try await _ in body {}
      }
      try await waitUntil(seconds: 10) { try await depth() == 2 }
      waiting.cancel()
      try await waitUntil(seconds: 10) { try await depth() == 1 }

      holding.cancel()
      try await waitUntil(seconds: 10) { try await depth() == 0 }
      _ = try? await holding.value
      _ = try? await waiting.value
    }
  }
}
