import Foundation
import HearthCore
import HearthStore
import Testing

@Suite("Facts in the store: the ones that hold, their history, and forgetting with it")
struct FactStoreTests {
  @Test("a fact that replaces another hides it until it is removed; deleting forgets the whole chain")
  func history() throws {
    let database = try HearthDatabase.inMemory()
    let first = Fact(text: "My brother's name is Tomas.", createdAt: Date(timeIntervalSince1970: 1_000))
    try database.insert(first)
    let second = Fact(
      text: "My brother's name is Tomás.", replaces: first.id, createdAt: Date(timeIntervalSince1970: 2_000))
    try database.insert(second)
    let other = Fact(text: "I don't eat meat.", isPinned: true, createdAt: Date(timeIntervalSince1970: 500))
    try database.insert(other)
    // Pinned first, then newest; the replaced one only in the history.
    #expect(try database.facts().map(\.id) == [other.id, second.id])
    #expect(try database.facts(includingHistory: true).map(\.id) == [other.id, second.id, first.id])
    #expect(try database.facts(replacing: first.id).map(\.id) == [second.id])
    // Undoing the replacement (removing the new fact) lets the old one hold again.
    try database.write(.remove(.fact, id: second.id))
    #expect(try database.facts().map(\.id) == [other.id, first.id])
    try database.insert(second)
    // Forgetting, as the user asks, takes the earlier versions with it.
    try database.write(.delete(.fact, id: second.id))
    #expect(try database.facts(includingHistory: true).map(\.id) == [other.id])
  }

  @Test("undoing a fact in the middle of a chain hands its place on; an expired replacement gives way back")
  func chainsAndExpiry() throws {
    let database = try HearthDatabase.inMemory()
    let porto = Fact(text: "I live in Porto.", createdAt: Date(timeIntervalSince1970: 1_000))
    let ghent = Fact(text: "I moved to Ghent.", replaces: porto.id, createdAt: Date(timeIntervalSince1970: 2_000))
    let lisbon = Fact(text: "I moved to Lisbon.", replaces: ghent.id, createdAt: Date(timeIntervalSince1970: 3_000))
    for fact in [porto, ghent, lisbon] { try database.insert(fact) }
    try database.write(.remove(.fact, id: ghent.id))
    #expect(try database.facts().map(\.id) == [lisbon.id])
    #expect(try database.item(Fact.self, id: lisbon.id)?.replaces == porto.id)
    // "I'm vegan until the 10th" in place of "I'm vegetarian": after the 10th, vegetarian holds again.
    let vegetarian = Fact(text: "I'm vegetarian.", createdAt: Date(timeIntervalSince1970: 1_000))
    let vegan = Fact(
      text: "I'm vegan.", expires: LocalDate(year: 2026, month: 12, day: 10), replaces: vegetarian.id,
      createdAt: Date(timeIntervalSince1970: 2_000))
    try database.insert(vegetarian)
    try database.insert(vegan)
    let before = LocalDate(year: 2026, month: 12, day: 5)!
    let after = LocalDate(year: 2026, month: 12, day: 11)!
    #expect(try database.facts(on: before).map(\.text).contains("I'm vegan."))
    #expect(!(try database.facts(on: before).map(\.text).contains("I'm vegetarian.")))
    #expect(try database.facts(on: after).map(\.text).contains("I'm vegetarian."))
  }

  @Test("a fact past its last day is kept but no longer holds; every field reads back as written")
  func expiryAndFields() throws {
    let database = try HearthDatabase.inMemory()
    let session = UUID()
    let fact = Fact(
      text: "I'm in Lisbon.", sessionID: session, messageID: UUID(), expires: LocalDate(year: 2026, month: 12, day: 4),
      createdAt: Date(timeIntervalSince1970: 1_000))
    try database.insert(fact)
    #expect(try database.item(Fact.self, id: fact.id) == fact)
    #expect(try database.facts(on: LocalDate(year: 2026, month: 12, day: 4)!).count == 1)
    #expect(try database.facts(on: LocalDate(year: 2026, month: 12, day: 5)!).isEmpty)
    #expect(try database.facts().count == 1)
    #expect(fact.origin == "said in a chat" && Fact(text: "x").origin == "typed")
  }

  @Test("an empty or overlong fact is refused, naming its field")
  func validation() {
    #expect(throws: PersonalDataError.invalid(field: "text", "is empty")) { try Fact(text: "  ").validate() }
    #expect(throws: PersonalDataError.self) { try Fact(text: String(repeating: "a", count: 301)).validate() }
  }
}
