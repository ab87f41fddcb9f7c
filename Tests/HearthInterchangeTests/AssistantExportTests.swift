import Foundation
import HearthCore
import HearthInterchange
import Testing

@Suite("Chat histories from ChatGPT and Claude: the branch shown, and the others as versions")
struct AssistantExportTests {
  private func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)))
  }

  private let session = UUID()

  @Test func chatGPTsCurrentBranchIsTheChatAndTheOthersAreVersions() throws {
    let parsed = try AssistantExport.chatGPT(try fixture("chatgpt-conversations.json"))
    #expect(parsed.conversations.map(\.title) == ["Weekend in Lisbon", "Quick sum"])
    #expect(parsed.skipped == ["image": 1, "tool output": 1, "tether browsing display": 1])
    let lisbon = parsed.conversations[0].export(sessionID: session)
    #expect(lisbon.session.title == "Weekend in Lisbon")
    #expect(lisbon.session.id == session)
    #expect(
      lisbon.messages.map(\.content) == [
        "Plan a weekend in Lisbon", "Start in Belém, then the tram to Alfama.", "What about museums?",
        "The Gulbenkian is worth a morning.",
      ])
    #expect(lisbon.messages.map(\.role) == [.user, .assistant, .user, .assistant])
    #expect(lisbon.messages.map(\.index) == [0, 1, 2, 3])
    #expect(lisbon.messages[0].createdAt == Date(timeIntervalSince1970: 1_764_000_010))
    // The first answer, asked again: a fork at 1; the question after it, edited: a fork at 2.
    let forks = Dictionary(grouping: lisbon.branches, by: \.position)
    #expect(forks.keys.sorted() == [1, 2])
    let first = try #require(forks[1]?.sorted { $0.ordinal < $1.ordinal })
    #expect(first.map { $0.tail == nil } == [false, true])
    #expect(first[0].tail?.messages.map(\.content) == ["Day one: walk up to Alfama and the castle."])
    let second = try #require(forks[2]?.sorted { $0.ordinal < $1.ordinal })
    #expect(second[0].tail?.messages.map(\.content) == ["What about food?", "Try the custard tarts in Belém."])
    #expect(second[0].tail?.messages.map(\.index) == [2, 3])
    #expect(second[1].tail == nil)
    #expect(lisbon.format == 2)

    let sum = parsed.conversations[1].export(sessionID: UUID())
    #expect(sum.messages.map(\.content) == ["What is 2 + 2?", "```\nprint(2 + 2)  # 4\n```"])
    #expect(sum.branches.isEmpty)
  }

  @Test func claudesBranchesFollowTheirParentsAndOlderExportsAreOneLine() throws {
    let parsed = try AssistantExport.claude(try fixture("claude-conversations.json"))
    #expect(parsed.conversations.map(\.title) == ["Garden planning", "A poem"])
    #expect(parsed.skipped == ["attachment": 1, "thinking": 1])
    let garden = parsed.conversations[0].export(sessionID: UUID())
    #expect(garden.messages.map(\.content).last == "Basil wants full sun.")
    #expect(garden.messages.count == 4)
    #expect(garden.branches.isEmpty)
    let poem = parsed.conversations[1].export(sessionID: UUID())
    #expect(
      poem.messages.map(\.content) == [
        "Write a haiku about rain.", "Soft rain, the garden", "Now one about snow.", "Snow hushes the street",
      ])
    #expect(poem.branches.count == 2)
    #expect(poem.branches.first { $0.tail != nil }?.tail?.messages.map(\.content) == ["Rain on the tin roof"])
  }

  @Test func filesThatAreNotExportsAreRefusedByWhatTheyAre() {
    #expect(throws: InterchangeError.self) { try AssistantExport.chatGPT(Data("BEGIN:VCALENDAR".utf8)) }
    #expect(throws: InterchangeError.self) { try AssistantExport.claude(Data(#"{"a":1}"#.utf8)) }
    // An empty export is no error: nothing to import.
    #expect((try? AssistantExport.chatGPT(Data("[]".utf8)))?.conversations.isEmpty == true)
  }
}
