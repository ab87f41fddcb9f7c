import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// What clients written for OpenAI and the llama.cpp server send beyond the basics, through the live server
/// and the real model: log probabilities, logit bias, several choices, grammars, text completions, the
/// tokenizer routes, the root aliases and the error codes clients branch on.
@Suite("OpenAI and llama.cpp server compatibility with the real model, in process and live", .serialized, .heavy)
struct OpenAICompatibilityTests {
  static let question = #"[{"role":"user","content":"What is the capital of France?"}]"#
  /// A request whose answers vary: an open question, sampled hot with every filter off.
  static let story =
    #"{"messages":[{"role":"user","content":"Tell me a story."}],"n":3,"max_tokens":6,"temperature":1.5,"top_k":0,"top_p":1,"min_p":0,"seed":7}"#

  static func chat(_ fields: String) -> String {
    #"{"messages":\#(question),"temperature":0,\#(fields)}"#
  }

  @Test func logprobsDescribeEveryTokenOfTheAnswer() async throws {
    try await LiveServer.routed { server in
      let reply = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":8,"logprobs":true,"top_logprobs":3"#))
      #expect(reply.status == 200, "\(reply.body)")
      let choice = try #require(reply.json?["choices"]?.arrayValue?.first)
      let tokens = try #require(choice["logprobs"]?["content"]?.arrayValue)
      #expect(tokens.count == Int(try #require(reply.json?["usage"]?["completion_tokens"]?.numberValue)))
      let text = tokens.compactMap { $0["token"]?.stringValue }.joined()
      #expect(text == choice["message"]?["content"]?.stringValue)
      for token in tokens {
        let logprob = try #require(token["logprob"]?.numberValue)
        #expect(logprob <= 0)
        let top = try #require(token["top_logprobs"]?.arrayValue)
        #expect(top.count == 3)
        let values = top.compactMap { $0["logprob"]?.numberValue }
        #expect(values == values.sorted(by: >))
        // Greedy decoding picks the likeliest token.
        #expect(top.first?["token"]?.stringValue == token["token"]?.stringValue)
        #expect(abs((values.first ?? 1) - logprob) < 1e-6)
        let bytes = token["bytes"]?.arrayValue?.compactMap(\.numberValue).map { UInt8($0) } ?? []
        #expect(String(decoding: bytes, as: UTF8.self) == token["token"]?.stringValue)
      }
      let plain = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":8"#))
      #expect(plain.json?["choices"]?.arrayValue?.first?["logprobs"] == .null)
      #expect(plain.json?["choices"]?.arrayValue?.first?["message"] == choice["message"])
    }
  }

  @Test func streamedLogprobsGoWithTheTextOfTheirChunk() async throws {
    try await LiveServer.routed { server in
      let events = try await Self.events(
        server, "/v1/chat/completions", Self.chat(#""max_tokens":10,"logprobs":true,"top_logprobs":2,"stream":true"#))
      var text = ""
      var tokenText = ""
      for chunk in events {
        guard let choice = chunk["choices"]?.arrayValue?.first, choice["finish_reason"] == .null,
          choice["delta"]?["role"] == nil
        else { continue }
        text += choice["delta"]?["content"]?.stringValue ?? ""
        let tokens = try #require(choice["logprobs"]?["content"]?.arrayValue)
        tokenText += tokens.compactMap { $0["token"]?.stringValue }.joined()
        #expect(tokens.allSatisfy { $0["top_logprobs"]?.arrayValue?.count == 2 })
      }
      #expect(!text.isEmpty)
      #expect(tokenText == text)
    }
  }

  @Test func aLogitBiasOfMinus100BansAToken() async throws {
    try await LiveServer.routed { server in
      let first = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":1,"logprobs":true,"top_logprobs":2"#))
      let top = try #require(first.json?["choices"]?.arrayValue?.first?["logprobs"]?["content"]?.arrayValue?.first)
      let chosen = try #require(top["token"]?.stringValue)
      let runnerUp = try #require(top["top_logprobs"]?.arrayValue?.last?["token"]?.stringValue)
      let content = try Self.quoted(chosen)
      let ids = try await server.request(.POST, "/tokenize", body: #"{"content":\#(content),"parse_special":false}"#)
      let id = try #require(ids.json?["tokens"]?.arrayValue?.first?.numberValue)
      let banned = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":1,"logit_bias":{"\#(Int(id))":-100}"#))
      #expect(banned.status == 200, "\(banned.body)")
      let answer = banned.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue
      #expect(answer != chosen)
      #expect(answer == runnerUp)
      let wrong = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""logit_bias":{"hello":5}"#))
      #expect(wrong.status == 400)
      #expect(wrong.json?["error"]?["param"]?.stringValue == "logit_bias")
      let beyond = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""logit_bias":{"99999999":5}"#))
      #expect(beyond.status == 400)
      #expect(beyond.json?["error"]?["param"]?.stringValue == "logit_bias")
    }
  }

  @Test func severalChoicesAreGeneratedAndCounted() async throws {
    try await LiveServer.routed { server in
      let reply = try await server.request(
        .POST, "/v1/chat/completions",
        body: Self.story)
      #expect(reply.status == 200, "\(reply.body)")
      let choices = try #require(reply.json?["choices"]?.arrayValue)
      #expect(choices.compactMap { $0["index"]?.numberValue } == [0, 1, 2])
      let texts = choices.compactMap { $0["message"]?["content"]?.stringValue }
      #expect(Set(texts).count > 1, "\(texts)")
      #expect(reply.json?["usage"]?["completion_tokens"]?.numberValue == 18)
      let again = try await server.request(
        .POST, "/v1/chat/completions",
        body: Self.story)
      #expect(again.json?["choices"] == reply.json?["choices"])
      let tooMany = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(#""n":5"#))
      #expect(tooMany.status == 400)
      #expect(tooMany.json?["error"]?["param"]?.stringValue == "n")
    }
  }

  @Test func grammarsAndSchemasFromTheLlamaServerExtensions() async throws {
    try await LiveServer.routed { server in
      let grammar = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":6,"grammar":"root ::= \"a\"{5,5}""#))
      #expect(grammar.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue == "aaaaa")
      let schema = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":6,"json_schema":{"const":"42"}"#))
      #expect(schema.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue == #""42""#)
      let shorthand = try await server.request(
        .POST, "/v1/chat/completions",
        body: Self.chat(#""max_tokens":10,"response_format":{"type":"json_object","schema":{"const":"foo"}}"#))
      #expect(shorthand.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue == #""foo""#)
      let invalid = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""grammar":"root ::= this is (not valid GBNF""#))
      #expect(invalid.status == 400)
      #expect(invalid.json?["error"]?["param"]?.stringValue == "grammar")
      // Measured before llama.cpp's recursive parser sees it.
      let deepGrammar =
        "root ::= " + String(repeating: "( ", count: 5000) + #"\"a\""# + String(repeating: " )", count: 5000)
      let deep = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""grammar":"\#(deepGrammar)""#))
      #expect(deep.status == 400)
      #expect(deep.json?["error"]?["param"]?.stringValue == "grammar")
      #expect(deep.json?["error"]?["message"]?.stringValue?.contains("nested 5000 deep") == true)
      let both = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat(#""grammar":"root ::= \"a\"","json_schema":{"type":"string"}"#))
      #expect(both.status == 400)
    }
  }

  @Test func fieldsThatAreNotHonouredAreRefusedByName() async throws {
    try await LiveServer.routed { server in
      let cases: [(fields: String, parameter: String)] = [
        (#""user":"someone""#, "user"),
        (#""store":true"#, "store"),
        (#""functions":[]"#, "functions"),
        (#""stream_options":{"include_obfuscation":true}"#, "stream_options.include_obfuscation"),
        (#""frequency_penalty":3"#, "frequency_penalty"),
        (#""top_logprobs":2"#, "top_logprobs"),
        (#""logprobs":true,"top_logprobs":21"#, "top_logprobs"),
        (#""id_slot":1"#, "id_slot"),
        (#""cache_prompt":false"#, "cache_prompt"),
      ]
      for item in cases {
        let reply = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(item.fields))
        #expect(reply.status == 400, "\(item.fields) → \(reply.body)")
        #expect(reply.json?["error"]?["param"]?.stringValue == item.parameter, "\(item.fields) → \(reply.body)")
      }
      let named = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[{"role":"user","content":"Hi","name":"Bob"}]}"#)
      #expect(named.status == 400)
      #expect(named.json?["error"]?["param"]?.stringValue == "messages[0].name", "\(named.body)")
      let honoured = try await server.request(
        .POST, "/v1/chat/completions",
        body: Self.chat(
          #""max_tokens":4,"frequency_penalty":1.5,"presence_penalty":-1,"id_slot":0,"cache_prompt":true"#))
      #expect(honoured.status == 200, "\(honoured.body)")
    }
  }

  @Test func theConversationMustBeWellFormedAndAFinalAssistantMessageIsContinued() async throws {
    try await LiveServer.routed { server in
      let twice =
        #"[{"role":"user","content":"Hi"},{"role":"assistant","content":"A"},{"role":"assistant","content":"B"}]"#
      let doubled = try await server.request(.POST, "/v1/chat/completions", body: #"{"messages":\#(twice)}"#)
      #expect(doubled.status == 400)
      #expect(doubled.json?["error"]?["param"]?.stringValue == "messages[2].role")
      let prefill =
        #"[{"role":"user","content":"What is the capital of France?"},{"role":"assistant","content":"The capital of France is"}]"#
      let template = try await server.request(.POST, "/apply-template", body: #"{"messages":\#(prefill)}"#)
      let prompt = try #require(template.json?["prompt"]?.stringValue)
      #expect(prompt.hasSuffix("<|im_start|>assistant\nThe capital of France is"), "\(prompt)")
      let continued = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":\#(prefill),"continue_final_message":true,"temperature":0,"max_tokens":6}"#)
      #expect(continued.status == 200, "\(continued.body)")
      let text = continued.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue ?? ""
      #expect(text.contains("Paris"), "\(text)")
      let contradictory = try await server.request(
        .POST, "/v1/chat/completions",
        body: #"{"messages":\#(prefill),"continue_final_message":true,"add_generation_prompt":true}"#)
      #expect(contradictory.status == 400)
    }
  }

  @Test func aPromptBeyondTheContextSaysSoInTheWayClientsBranchOn() async throws {
    try await LiveServer.routed { server in
      let long = String(repeating: "word ", count: 5000)
      for stream in [false, true] {
        let reply = try await server.request(
          .POST, "/chat/completions",
          body: #"{"messages":[{"role":"user","content":"\#(long)"}],"stream":\#(stream)}"#)
        #expect(reply.status == 400)
        let error = try #require(reply.json?["error"])
        #expect(error["code"]?.stringValue == "context_length_exceeded")
        #expect(error["type"]?.stringValue == "exceed_context_size_error")
        let context = try #require(error["n_ctx"]?.numberValue)
        #expect(context >= 512)
        #expect((error["n_prompt_tokens"]?.numberValue ?? 0) > context)
      }
    }
  }

  @Test func aFullQueueIsARateLimit() async throws {
    try await LiveServer.with(configuration: ServerConfiguration(port: 0, maxQueuedRequests: 1)) { server in
      let (status, body) = try await server.stream(
        "/v1/chat/completions", body: Self.chat(#""max_tokens":400,"ignore_eos":true,"stream":true"#))
      #expect(status == 200)
      var iterator = body.makeAsyncIterator()
      _ = try await iterator.next()
      let refused = try await server.request(.POST, "/v1/completions", body: #"{"prompt":"Hello","max_tokens":2}"#)
      #expect(refused.status == 429)
      #expect(refused.json?["error"]?["code"]?.stringValue == "rate_limit_exceeded")
    }
  }

  @Test func textCompletionsContinueARawPrompt() async throws {
    try await LiveServer.routed { server in
      let body = #"{"prompt":"The capital of France is","max_tokens":8,"temperature":0"#
      let whole = try await server.request(.POST, "/v1/completions", body: body + "}")
      #expect(whole.status == 200, "\(whole.body)")
      let json = try #require(whole.json)
      #expect(json["object"]?.stringValue == "text_completion")
      #expect(json["id"]?.stringValue?.hasPrefix("cmpl-") == true)
      #expect(json["system_fingerprint"]?.stringValue?.hasPrefix("b") == true)
      let text = try #require(json["choices"]?.arrayValue?.first?["text"]?.stringValue)
      #expect(text.contains("Paris"), "\(text)")
      #expect(json["usage"]?["completion_tokens"]?.numberValue == 8)
      let streamed = try await Self.events(server, "/completions", body + #","stream":true}"#)
      #expect(streamed.compactMap { $0["choices"]?.arrayValue?.first?["text"]?.stringValue }.joined() == text)
      let echoed = try await server.request(.POST, "/v1/completions", body: body + #","echo":true}"#)
      #expect(
        echoed.json?["choices"]?.arrayValue?.first?["text"]?.stringValue == "The capital of France is" + text)
      let figures = try await server.request(.POST, "/v1/completions", body: body + #","logprobs":2}"#)
      let logprobs = try #require(figures.json?["choices"]?.arrayValue?.first?["logprobs"])
      #expect(logprobs["tokens"]?.arrayValue?.compactMap(\.stringValue).joined() == text)
      #expect(logprobs["token_logprobs"]?.arrayValue?.count == 8)
      #expect(logprobs["text_offset"]?.arrayValue?.first?.numberValue == 0)
      let tokens = try await server.request(.POST, "/tokenize", body: #"{"content":"The capital of France is"}"#)
      let ids = try #require(tokens.json?["tokens"])
      let fromIDs = try await server.request(
        .POST, "/v1/completions", body: #"{"prompt":\#(ids.jsonText),"max_tokens":8,"temperature":0}"#)
      #expect(fromIDs.json?["choices"]?.arrayValue?.first?["text"]?.stringValue == text)
      for (fields, parameter) in [
        (#""suffix":"end""#, "suffix"), (#""best_of":2"#, "best_of"), (#""echo":true,"logprobs":1"#, "echo"),
        (#""logprobs":6"#, "logprobs"), (#""user":"x""#, "user"),
      ] {
        let refused = try await server.request(.POST, "/v1/completions", body: body + "," + fields + "}")
        #expect(refused.status == 400, "\(fields)")
        #expect(refused.json?["error"]?["param"]?.stringValue == parameter, "\(fields) → \(refused.body)")
      }
      let several = try await server.request(.POST, "/v1/completions", body: #"{"prompt":["a","b"]}"#)
      #expect(several.status == 400)
    }
  }

  @Test func theTokenizerRoutesUseTheModelsOwnVocabulary() async throws {
    try await LiveServer.routed { server in
      let text = "Hearth tokenizes naïve café 東京 🔥"
      let tokens = try await server.request(.POST, "/tokenize", body: #"{"content":"\#(text)"}"#)
      let ids = try #require(tokens.json?["tokens"]?.arrayValue)
      #expect(ids.count > 5)
      let list = try #require(tokens.json?["tokens"]).jsonText
      let back = try await server.request(.POST, "/v1/detokenize", body: #"{"tokens":\#(list)}"#)
      #expect(back.json?["content"]?.stringValue == text)
      let pieces = try await server.request(.POST, "/tokenize", body: #"{"content":"\#(text)","with_pieces":true}"#)
      let entries = try #require(pieces.json?["tokens"]?.arrayValue)
      #expect(entries.count == ids.count)
      #expect(entries.compactMap { $0["id"]?.numberValue } == ids.compactMap(\.numberValue))
      // A piece that is part of a character comes as its bytes.
      #expect(entries.contains { $0["piece"]?.arrayValue != nil })
      let wrong = try await server.request(.POST, "/detokenize", body: #"{"tokens":[1,-4]}"#)
      #expect(wrong.status == 400)
      #expect(wrong.json?["error"]?["param"]?.stringValue == "tokens[1]")
      let counted = try await server.request(
        .POST, "/chat/completions/input_tokens", body: #"{"messages":\#(Self.question)}"#)
      let whole = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":1"#))
      #expect(counted.json?["input_tokens"] == whole.json?["usage"]?["prompt_tokens"])
    }
  }

  @Test func theRootAliasesAnswerLikeV1WithOneFingerprint() async throws {
    try await LiveServer.routed { server in
      #expect(try await server.request(.GET, "/models").json == (try await server.request(.GET, "/v1/models").json))
      let first = try await server.request(.POST, "/chat/completions", body: Self.chat(#""max_tokens":4"#))
      let second = try await server.request(.POST, "/v1/chat/completions", body: Self.chat(#""max_tokens":4"#))
      #expect(first.json?["choices"] == second.json?["choices"])
      let fingerprint = try #require(first.json?["system_fingerprint"]?.stringValue)
      #expect(fingerprint.hasPrefix("b"))
      #expect(second.json?["system_fingerprint"]?.stringValue == fingerprint)
      let events = try await Self.events(server, "/v1/chat/completions", Self.chat(#""max_tokens":4,"stream":true"#))
      #expect(events.allSatisfy { $0["system_fingerprint"]?.stringValue == fingerprint })
      let opening = try #require(events.first?["choices"]?.arrayValue?.first?["delta"])
      #expect(opening["role"]?.stringValue == "assistant")
      #expect(opening["content"] == .null)
    }
  }

  @Test func verboseShowsThePromptAndTimingsComeWithEveryChunk() async throws {
    try await LiveServer.routed { server in
      let verbose = try await server.request(
        .POST, "/chat/completions", body: Self.chat(#""max_tokens":2,"verbose":true"#))
      let prompt = try #require(verbose.json?["__verbose"]?["prompt"]?.stringValue)
      #expect(prompt.contains("What is the capital of France?") && prompt.hasSuffix("<|im_start|>assistant\n"))
      let quiet = try await server.request(.POST, "/chat/completions", body: Self.chat(#""max_tokens":2"#))
      #expect(quiet.json?["__verbose"] == nil)
      let events = try await Self.events(
        server, "/chat/completions",
        Self.chat(#""max_tokens":6,"stream":true,"stream_options":{"include_usage":true},"timings_per_token":true"#))
      #expect(events.first?["timings"] == nil)
      let later = events.dropFirst()
      #expect(!later.isEmpty && later.allSatisfy { $0["timings"]?["predicted_n"] != nil })
      let usage = try #require(events.last)
      #expect(usage["choices"]?.arrayValue?.isEmpty == true)
      #expect(usage["timings"]?["predicted_n"]?.numberValue == usage["usage"]?["completion_tokens"]?.numberValue)
      #expect((usage["timings"]?["predicted_per_second"]?.numberValue ?? 0) > 0)
      let refused = try await server.request(
        .POST, "/chat/completions", body: Self.chat(#""stream":true,"verbose":true"#))
      #expect(refused.json?["error"]?["param"]?.stringValue == "verbose")
    }
  }

  @Test func anyModelNameIsAnsweredOnlyWhenTheServerIsToldTo() async throws {
    let strict = ServerConfiguration(port: 0)
    var lenient = ServerConfiguration(port: 0)
    lenient.answersAnyModelName = true
    for configuration in [strict, lenient] {
      try await LiveServer.routed(configuration: configuration) { server in
        let chat = try await server.request(
          .POST, "/v1/chat/completions", body: Self.chat(#""model":"gpt-3.5-turbo","max_tokens":2"#))
        let embedding = try await server.request(
          .POST, "/v1/embeddings", body: #"{"model":"text-embedding-3-small","input":"hello"}"#)
        if configuration.answersAnyModelName {
          #expect(chat.status == 200, "\(chat.body)")
          #expect(embedding.status == 200, "\(embedding.body)")
        } else {
          #expect(chat.status == 404)
          #expect(chat.json?["error"]?["code"]?.stringValue == "model_not_found")
          #expect(embedding.json?["error"]?["code"]?.stringValue == "model_not_found")
        }
        // No model named means the embedding model, as the llama.cpp server takes it.
        let unnamed = try await server.request(.POST, "/embeddings", body: #"{"input":"hello"}"#)
        #expect(unnamed.json?["data"]?.arrayValue?.first?["embedding"]?.arrayValue?.count == 384)
      }
    }
  }

  @Test func theStreamReportsHowFarThePromptHasBeenRead() async throws {
    try await LiveServer.routed { server in
      let events = try await Self.events(
        server, "/chat/completions", Self.chat(#""max_tokens":4,"stream":true,"return_progress":true"#))
      let reports = events.compactMap { $0["prompt_progress"] }
      #expect(reports.count >= 2)
      let first = try #require(reports.first)
      #expect(first["processed"] == first["cache"])
      let last = try #require(reports.last)
      #expect(last["processed"] == last["total"])
      #expect((last["total"]?.numberValue ?? 0) > 5)
      let whole = try await server.request(.POST, "/chat/completions", body: Self.chat(#""return_progress":true"#))
      #expect(whole.json?["error"]?["param"]?.stringValue == "return_progress")
    }
    var showing = ServerConfiguration(port: 0)
    showing.showsPrompts = true
    try await LiveServer.routed(configuration: showing) { server in
      let shown = try await server.request(.POST, "/chat/completions", body: Self.chat(#""max_tokens":2"#))
      #expect(shown.json?["__verbose"]?["prompt"]?.stringValue?.contains("capital of France") == true)
      let hidden = try await server.request(
        .POST, "/chat/completions", body: Self.chat(#""max_tokens":2,"verbose":false"#))
      #expect(hidden.json?["__verbose"] == nil)
    }
  }

  // MARK: Helpers

  static func events(_ server: LiveServer, _ path: String, _ body: String) async throws -> [JSONValue] {
    let (status, chunks) = try await server.stream(path, body: body)
    #expect(status == 200)
    var parser = EventParser()
    var events: [EventParser.Event] = []
    for try await buffer in chunks { events += parser.feed(String(buffer: buffer)) }
    #expect(events.last?.data == "[DONE]")
    return events.dropLast().compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.data.utf8)) }
  }

  static func quoted(_ text: String) throws -> String {
    String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
  }
}
