import Foundation
import HearthTestSupport
import Testing

@Suite("hearth memory: facts remembered, listed, changed and forgotten, run as a user would", .heavy)
struct MemoryFactsCommandTests {
  private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test("a fact is remembered, replaced, pinned, changed and forgotten; bad input names what is wrong")
  func lifecycle() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_HOME": try TestModels.temporaryDirectory().path])
    let first = try await hearth.run(["memory", "remember", "I live in Porto.", "--json"])
    #expect(first.status == 0, "\(first.standardError)")
    let id = try #require((try json(first.standardOutput) as? [String: Any])?["id"] as? String)
    let second = try await hearth.run(["memory", "remember", "I live in Lisbon", "--until", "2099-01-01"])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardOutput.contains("in place of “I live in Porto.”"), "\(second.standardOutput)")
    let listed = try await hearth.run(["memory", "facts"])
    #expect(listed.standardOutput.contains("I live in Lisbon  (until 2099-01-01)"), "\(listed.standardOutput)")
    #expect(!listed.standardOutput.contains("Porto"))
    let history = try await hearth.run(["memory", "facts", "--history", "--json"])
    let facts = try #require(try json(history.standardOutput) as? [[String: Any]])
    #expect(facts.count == 2)
    let lisbon = try #require(facts.first { ($0["replaces"] as? String) == id }?["id"] as? String)

    let pinned = try await hearth.run(["memory", "edit", String(lisbon.prefix(8)), "--pin", "--no-until"])
    #expect(pinned.status == 0, "\(pinned.standardError)")
    #expect(pinned.standardOutput.contains("📌 I live in Lisbon"), "\(pinned.standardOutput)")
    #expect(!pinned.standardOutput.contains("until"))

    let nothing = try await hearth.run(["memory", "edit", lisbon])
    #expect(nothing.status != 0 && nothing.standardError.contains("nothing to change"), "\(nothing.standardError)")
    let badDay = try await hearth.run(["memory", "remember", "x", "--until", "friday"])
    #expect(badDay.status != 0 && badDay.standardError.contains("--until"), "\(badDay.standardError)")
    let unknown = try await hearth.run(["memory", "forget", "zzzz"])
    #expect(unknown.status != 0 && unknown.standardError.contains("zzzz"), "\(unknown.standardError)")

    let forgotten = try await hearth.run(["memory", "forget", lisbon])
    #expect(forgotten.status == 0 && forgotten.standardOutput.contains("forgot “I live in Lisbon”"))
    let after = try await hearth.run(["memory", "facts", "--history", "--json"])
    #expect((try json(after.standardOutput) as? [Any])?.isEmpty == true)
  }
}
