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
    let identity = CompletionIdentity(model: "model \"one\"/ä", promptTokens: 3)
    let template = try #require(DeltaChunkTemplate(identity: identity, field: field))
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
    let expected = try JSONDecoder().decode(JSONValue.self, from: Data(identity.chunk(delta).utf8))
    #expect(decoded == expected)
  }

  @Test func aPieceWithBothKindsOfTextKeepsBoth() throws {
    let events = PieceEvents(identity: CompletionIdentity(model: "m", promptTokens: 1))
    let written = String(buffer: events.event(content: "answer", reasoning: "thought"))
    let json = try #require(written.split(separator: "\n").first?.dropFirst("data: ".count))
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let delta = ((object?["choices"] as? [[String: Any]])?.first?["delta"]) as? [String: Any]
    #expect(delta?["content"] as? String == "answer")
    #expect(delta?["reasoning_content"] as? String == "thought")
  }
}
