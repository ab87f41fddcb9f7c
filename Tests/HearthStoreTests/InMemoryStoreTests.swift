import Foundation
import HearthCore
import Testing

@testable import HearthStore

@Suite("A store in memory (the turn that is not kept)")
struct InMemoryStoreTests {
  @Test("has the whole schema: sessions, messages and their search, each store apart from the others")
  func holdsTheSameSchemaAndNothingElse() throws {
    let first = try HearthDatabase.inMemory()
    let second = try HearthDatabase.inMemory()
    let session = try first.createSession(ChatSession(title: "not kept"))
    _ = try first.appendMessage(
      StoredMessage(sessionID: session.id, index: 0, role: .user, content: "a question about lighthouses"))
    #expect(try first.messages(in: session.id).map(\.content) == ["a question about lighthouses"])
    #expect(try first.search("lighthouses").count == 1)
    // Nothing is shared: another store in memory has neither the session nor its words.
    #expect(try second.search("lighthouses").isEmpty)
    #expect(throws: StoreError.self) { try second.session(session.id) }
    #expect(first.path == ":memory:")
  }
}
