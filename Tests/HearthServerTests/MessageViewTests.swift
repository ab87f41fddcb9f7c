import Foundation
import HearthCore
import Testing

@testable import HearthServer

@Suite struct MessageViewTests {
  private func json(_ message: StoredMessage) throws -> [String: Any] {
    let data = try JSONEncoder().encode(MessageView(message))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func anAnswerCarriesItsBlocksAsUTF16SpansBesideTheStoredFields() throws {
    let content = #"Añadido 👍 [REMINDER_ACTION:{"action":"create","title":"Call Zoë"}] — done."#
    let answer = StoredMessage(sessionID: UUID(), index: 1, role: .assistant, content: content)
    let object = try json(answer)
    #expect(object["content"] as? String == content)
    #expect(object["index"] as? Int == 1)
    let spans = try #require(object["action_blocks"] as? [[Int]])
    #expect(spans.count == 1)
    let units = Array(content.utf16)
    let block = String(decoding: units[spans[0][0]..<spans[0][1]], as: UTF16.self)
    #expect(block == #"[REMINDER_ACTION:{"action":"create","title":"Call Zoë"}]"#)
  }

  @Test func aUserMessageIsNeverCutEvenWhenItHoldsABlock() throws {
    let question = StoredMessage(
      sessionID: UUID(), index: 0, role: .user, content: #"What does [NOTE_ACTION:{"action":"create"}] do?"#)
    #expect((try json(question)["action_blocks"] as? [[Int]])?.isEmpty == true)
  }
}
