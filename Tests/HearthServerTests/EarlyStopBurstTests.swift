import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// Many requests at once against the live server, each ending its generation early in one of the ways
/// clients do: a stop sequence (streamed and whole), a client that hangs up, a web chat stopped with
/// `/stop`. Every one is queued behind the others; none may fail because the one before it was still
/// winding down. Nothing here waits for the server to go idle.
@Suite("Early stops in a burst, through the live server", .serialized, .heavy)
struct EarlyStopBurstTests {
  private static let counting = #"{"role":"user","content":"Count from 1 to 50, separated by commas."}"#
  /// Where the early stops cut: a count is written with commas or one number a line (greedy SmolLM2 writes
  /// either, depending on the CPU's arithmetic), and 100 tokens of anything else hold one of the two.
  private static let stops = [",", "\n"]

  private enum Outcome: Sendable {
    case streamedStop(status: Int, content: String, finished: Bool)
    case wholeStop(status: Int, content: String?, finishReason: String?)
    case hungUp(status: Int, chunks: Int)
    case stoppedTurn(events: [String], state: String?)
  }

  @Test func everyRequestIsAnsweredWhenManyStopEarlyBackToBack() async throws {
    let settings = ChatSettings(preset: .precise, maxTokens: 200)
    try await LiveServer.with(settings: settings) { server in
      var turnSessions: [String] = []
      for _ in 0..<2 {
        let created = try await server.request(.POST, "/api/sessions", body: "{}")
        turnSessions.append(try #require(created.json?["id"]?.stringValue))
      }
      let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
        // Each way of stopping early, twice, all at once.
        for index in 0..<14 {
          switch index % 7 {
          case 0, 1, 2: group.addTask { try await Self.streamedStop(server) }
          case 3, 4: group.addTask { try await Self.wholeStop(server) }
          case 5: group.addTask { try await Self.hangUp(server) }
          default: group.addTask { [id = turnSessions[index / 7]] in try await Self.stoppedTurn(server, session: id) }
          }
        }
        return try await group.reduce(into: [Outcome]()) { $0.append($1) }
      }
      #expect(outcomes.count == 14)
      for outcome in outcomes {
        switch outcome {
        case .streamedStop(let status, let content, let finished):
          #expect(status == 200)
          #expect(finished, "the stream ended without [DONE]")
          #expect(!content.isEmpty && !Self.stops.contains(where: content.contains), "\(content)")
        case .wholeStop(let status, let content, let finishReason):
          #expect(status == 200)
          #expect(finishReason == "stop", "\(content ?? "nil")")
          #expect(content?.isEmpty == false && !Self.stops.contains(where: { content?.contains($0) ?? true }))
        case .hungUp(let status, let chunks):
          #expect(status == 200)
          #expect(chunks >= 1)
        case .stoppedTurn(let events, let state):
          #expect(!events.contains("error"), "\(events)")
          #expect(events.last == "done", "\(events)")
          #expect(state == "cancelled" || state == "complete", "\(state ?? "nil")")
        }
      }
      // And the server still answers in full afterwards.
      let after = try await server.request(
        .POST, "/v1/chat/completions", body: #"{"messages":[\#(Self.counting)],"max_tokens":12}"#)
      #expect(after.status == 200, "\(after.body)")
      #expect(after.json?["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue?.isEmpty == false)
    }
  }

  private static func streamedStop(_ server: LiveServer) async throws -> Outcome {
    let body = #"{"messages":[\#(counting)],"stop":[",","\n"],"stream":true,"max_tokens":100}"#
    let (status, chunks) = try await server.stream("/v1/chat/completions", body: body)
    var parser = EventParser()
    var content = ""
    var finished = false
    for try await chunk in chunks {
      for event in parser.feed(String(buffer: chunk)) {
        if event.data == "[DONE]" {
          finished = true
          continue
        }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8))
        content += json["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue ?? ""
      }
    }
    return .streamedStop(status: status, content: content, finished: finished)
  }

  private static func wholeStop(_ server: LiveServer) async throws -> Outcome {
    let reply = try await server.request(
      .POST, "/v1/chat/completions", body: #"{"messages":[\#(counting)],"stop":[",","\n"],"max_tokens":100}"#)
    let choice = reply.json?["choices"]?.arrayValue?.first
    return .wholeStop(
      status: reply.status, content: choice?["message"]?["content"]?.stringValue,
      finishReason: choice?["finish_reason"]?.stringValue)
  }

  private static func hangUp(_ server: LiveServer) async throws -> Outcome {
    let body = #"{"messages":[\#(counting)],"stream":true,"max_tokens":100}"#
    let (status, chunks) = try await server.stream("/v1/chat/completions", body: body)
    var seen = 0
    for try await _ in chunks {
      seen += 1
      if seen == 2 { break }
    }
    return .hungUp(status: status, chunks: seen)
  }

  /// A web chat turn stopped with `/stop` as soon as its first answer text arrives.
  private static func stoppedTurn(_ server: LiveServer, session id: String) async throws -> Outcome {
    let (_, chunks) = try await server.stream(
      "/api/sessions/\(id)/turns", body: #"{"text":"Count from 1 to 50, separated by commas."}"#)
    var parser = EventParser()
    var names: [String] = []
    var state: String?
    var stopped = false
    for try await chunk in chunks {
      for event in parser.feed(String(buffer: chunk)) {
        let name = event.name ?? "message"
        names.append(name)
        if name == "answer", !stopped {
          stopped = true
          _ = try await server.request(.POST, "/api/sessions/\(id)/stop")
        }
        if name == "done" {
          let json = try JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8))
          state = json["message"]?["state"]?.stringValue
        }
      }
    }
    return .stoppedTurn(events: names, state: state)
  }
}
