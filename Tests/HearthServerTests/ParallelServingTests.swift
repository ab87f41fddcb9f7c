import AsyncHTTPClient
import Foundation
import HearthCore
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthEngine

@Suite("A model with several slots answers several requests at once", .heavy)
struct ParallelServingTests {
  private static func chat(_ content: String, _ extra: String) -> String {
    #"{"messages":[{"role":"user","content":"\#(content)"}],"temperature":0,\#(extra)}"#
  }

  /// With two slots, a short request sent while a long answer streams is answered before the long one ends:
  /// the two are decoded side by side. With one, the short one waits for the long one.
  @Test(arguments: [1, 2])
  func aShortRequestIsAnsweredBesideALongOne(slots: Int) async throws {
    try await LiveServer.with(parallel: slots) { server in
      let (status, body) = try await server.stream(
        "/v1/chat/completions", body: Self.chat("Count to 300.", #""max_tokens":160,"ignore_eos":true,"stream":true"#))
      #expect(status == 200)
      let order = OrderLog()
      let long = Task {
        var parser = EventParser()
        for try await chunk in body {
          for event in parser.feed(String(buffer: chunk)) where event.data == "[DONE]" { await order.note("long") }
        }
      }
      // The long answer is under way before the short one is sent.
      try await waitUntil(seconds: 20) { await server.engine.queueDepth == 1 }
      let short = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat("Say hi.", #""max_tokens":4"#))
      await order.note("short")
      #expect(short.status == 200, "\(short.body)")
      try await long.value
      #expect(await order.names == (slots == 2 ? ["short", "long"] : ["long", "short"]))
    }
  }

  /// `id_slot` names one of the slots: the last one is taken, one beyond is refused by name.
  @Test func idSlotNamesOneOfTheSlots() async throws {
    try await LiveServer.with(parallel: 2) { server in
      let taken = try await server.request(
        .POST, "/v1/chat/completions", body: Self.chat("Say hi.", #""max_tokens":4,"id_slot":1"#))
      #expect(taken.status == 200, "\(taken.body)")
      let beyond = try await server.request(
        .POST, "/v1/completions", body: #"{"prompt":"Hello","max_tokens":2,"id_slot":2}"#)
      #expect(beyond.status == 400)
      #expect(beyond.json?["error"]?["param"]?.stringValue == "id_slot")
    }
  }

  /// A prompt longer than one slot's window is refused with that window as `n_ctx`, as llama-server reports
  /// the context per slot.
  @Test func theContextErrorNamesTheWindowOfOneSlot() async throws {
    try await LiveServer.with(parallel: 2) { server in
      let long = String(repeating: "word ", count: 2600)
      let reply = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[{"role":"user","content":"\#(long)"}]}"#)
      #expect(reply.status == 400)
      #expect(reply.json?["error"]?["type"]?.stringValue == "exceed_context_size_error")
      #expect(reply.json?["error"]?["n_ctx"]?.numberValue == 2048)
    }
  }
}

/// Names noted in the order things happened.
private actor OrderLog {
  private(set) var names: [String] = []
  func note(_ name: String) { names.append(name) }
}
