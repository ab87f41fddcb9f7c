import Foundation
import HearthCore
import NIOCore
import Testing

@testable import HearthServer

@Suite("Stream chunks written from a template")
struct DeltaChunkTemplateTests {
  static let texts = [
    "Paris", "", " a \"quoted\" word", #"back\slash"#, "line\nbreak\r\ttab", "\u{0}\u{1}\u{8}\u{C}\u{1F}",
    "</script><img src=x>", "naïve café 東京 🔥", "\u{2028}\u{2029}",
  ]

  @Test(arguments: texts, [DeltaChunkTemplate.Field.content, .reasoning])
  func theTemplateWritesWhatTheEncoderWrites(text: String, field: DeltaChunkTemplate.Field) throws {
    let identity = CompletionIdentity(model: "model \"one\"/ä", promptTokens: 3, fingerprint: "b00ff")
    let index = text.count % 3
    let template = try #require(DeltaChunkTemplate(identity: identity, index: index, field: field))
    let delta =
      switch field {
      case .content: ChatCompletionChunk.Delta(content: text)
      case .reasoning: ChatCompletionChunk.Delta(reasoningContent: text)
      }
    let written = String(buffer: template.event(text))
    #expect(written.hasPrefix("data: ") && written.hasSuffix("\n\n"))
    #expect(written.dropLast(2).allSatisfy { !$0.isNewline || $0 == "\u{2028}" || $0 == "\u{2029}" })
    // The encoder orders keys as it likes, so the objects are compared, not the text.
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(written.dropFirst(6).utf8))
    let expected = try JSONDecoder().decode(
      JSONValue.self, from: Data(identity.chunk(delta, index: index).utf8))
    #expect(decoded == expected)
  }

  @Test func aPieceWithBothKindsOfTextKeepsBoth() throws {
    let events = PieceEvents(identity: CompletionIdentity(model: "m", promptTokens: 1, fingerprint: "b1"), index: 0)
    let written = String(buffer: events.event(.init(content: "answer", reasoning: "thought"), logprobs: false))
    let object = try Self.object(written)
    let delta = ((object["choices"] as? [[String: Any]])?.first?["delta"]) as? [String: Any]
    #expect(delta?["content"] as? String == "answer")
    #expect(delta?["reasoning_content"] as? String == "thought")
    #expect(object["system_fingerprint"] as? String == "b1")
  }

  @Test func aPieceCarriesTheLogprobsOfItsTokens() throws {
    let events = PieceEvents(identity: CompletionIdentity(model: "m", promptTokens: 1, fingerprint: "b1"), index: 2)
    let token = TokenLogprob(
      chosen: .init(id: 7, bytes: Array("Hi".utf8), logprob: -0.25),
      top: [.init(id: 7, bytes: Array("Hi".utf8), logprob: -0.25), .init(id: 9, bytes: [0xE2], logprob: -2)])
    let written = String(buffer: events.event(.init(content: "Hi", logprobs: [token]), logprobs: true))
    let choice = try #require((try Self.object(written)["choices"] as? [[String: Any]])?.first)
    #expect(choice["index"] as? Int == 2)
    let content = try #require((choice["logprobs"] as? [String: Any])?["content"] as? [[String: Any]])
    #expect(content.count == 1)
    #expect(content[0]["token"] as? String == "Hi")
    #expect(content[0]["logprob"] as? Double == -0.25)
    #expect(content[0]["bytes"] as? [Int] == [72, 105])
    let alternatives = try #require(content[0]["top_logprobs"] as? [[String: Any]])
    #expect(alternatives.map { $0["bytes"] as? [Int] } == [[72, 105], [0xE2]])
  }

  static func object(_ event: String) throws -> [String: Any] {
    let json = try #require(event.split(separator: "\n").first?.dropFirst("data: ".count))
    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }
}
