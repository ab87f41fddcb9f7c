import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthStore

@Suite("Versions of a chat kept where it went more than one way", .heavy)
struct BranchTests {
  private func freshDatabase() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  /// A chat of `texts`, alternating user and assistant.
  private func chat(_ database: HearthDatabase, _ texts: [String]) throws -> ChatSession {
    let session = try database.createSession(ChatSession(title: "Plans"))
    for (offset, text) in texts.enumerated() {
      try database.appendMessage(
        StoredMessage(sessionID: session.id, index: 0, role: offset % 2 == 0 ? .user : .assistant, content: text))
    }
    return session
  }

  private func contents(_ database: HearthDatabase, _ session: ChatSession) throws -> [String] {
    try database.messages(in: session.id).map(\.content)
  }

  private func answer(_ session: ChatSession, _ text: String, role: ChatMessage.Role = .assistant) -> StoredMessage {
    StoredMessage(sessionID: session.id, index: 0, role: role, content: text)
  }

  @Test func aRegeneratedAnswerKeepsTheOldOneWithItsSourcesAndBothCanBeShown() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Hi", "Hello!", "Where is the key?", "Under the mat."])
    let old = try database.messages(in: session.id)[3]
    let cited = [
      Citation(
        number: 1, sourceID: "note:a", collection: .notes, title: "House", location: "a", heading: "", start: 0, end: 9)
    ]
    try database.setCitations(cited, for: old.id)

    let replaced = try database.branch(session.id, at: 3, replacingWith: [answer(session, "Under the blue pot.")])
    #expect(replaced.map(\.index) == [3])
    #expect(try contents(database, session) == ["Hi", "Hello!", "Where is the key?", "Under the blue pot."])
    #expect(try database.forks(in: session.id) == [MessageFork(position: 3, count: 2, current: 1)])
    // The old answer left the chat: search, the prompt and the memory see one conversation.
    #expect(try database.search("mat", scope: .bodies).isEmpty)
    #expect(try database.citations(for: [old.id]).isEmpty)

    let shown = try database.showAlternative(0, at: 3, in: session.id)
    #expect(shown.map(\.content) == ["Hi", "Hello!", "Where is the key?", "Under the mat."])
    #expect(shown[3].id == old.id)
    #expect(try database.citations(for: [old.id])[old.id] == cited)
    #expect(try database.forks(in: session.id) == [MessageFork(position: 3, count: 2, current: 0)])
    #expect(try database.search("mat", scope: .bodies).count == 1)

    // Showing the one already shown changes nothing; another answer adds a third version.
    try database.showAlternative(0, at: 3, in: session.id)
    try database.branch(session.id, at: 3, replacingWith: [answer(session, "In the drawer.")])
    #expect(try database.forks(in: session.id) == [MessageFork(position: 3, count: 3, current: 2)])
    try database.showAlternative(1, at: 3, in: session.id)
    #expect(try contents(database, session).last == "Under the blue pot.")
  }

  @Test func anEditedMessageKeepsTheWholeOldPathWithTheForksInsideIt() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Plan a trip", "Where to?", "Rome", "Rome it is.", "Book it", "Booked."])
    // A fork further down the old path: the answer to "Rome" was regenerated.
    try database.branch(
      session.id, at: 3, replacingWith: [answer(session, "Rome, lovely."), answer(session, "Go?", role: .user)])
    #expect(try contents(database, session) == ["Plan a trip", "Where to?", "Rome", "Rome, lovely.", "Go?"])

    // The user edits "Rome": everything from there on, fork included, is kept as version 1.
    try database.branch(
      session.id, at: 2, replacingWith: [answer(session, "Paris", role: .user), answer(session, "Paris!")])
    #expect(try contents(database, session) == ["Plan a trip", "Where to?", "Paris", "Paris!"])
    #expect(try database.forks(in: session.id) == [MessageFork(position: 2, count: 2, current: 1)])

    try database.showAlternative(0, at: 2, in: session.id)
    #expect(try contents(database, session) == ["Plan a trip", "Where to?", "Rome", "Rome, lovely.", "Go?"])
    #expect(
      try database.forks(in: session.id) == [
        MessageFork(position: 2, count: 2, current: 0), MessageFork(position: 3, count: 2, current: 1),
      ])
    try database.showAlternative(0, at: 3, in: session.id)
    #expect(
      try contents(database, session) == ["Plan a trip", "Where to?", "Rome", "Rome it is.", "Book it", "Booked."])

    // Back to Paris and again to Rome: the inner choice was kept with its path.
    try database.showAlternative(1, at: 2, in: session.id)
    #expect(try contents(database, session) == ["Plan a trip", "Where to?", "Paris", "Paris!"])
    try database.showAlternative(0, at: 2, in: session.id)
    #expect(try contents(database, session).last == "Booked.")
  }

  @Test func aSummaryOfMessagesThatChangedIsDropped() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["a", "b", "c", "d", "e", "f"])
    try database.modifySession(session.id) {
      $0.droppedMessageCount = 4
      $0.summary = "a to d"
    }
    try database.branch(session.id, at: 5, replacingWith: [answer(session, "F")])
    #expect(try database.session(session.id).summary == "a to d")
    try database.branch(session.id, at: 3, replacingWith: [answer(session, "D")])
    #expect(try database.session(session.id).droppedMessageCount == 0)
    #expect(try database.session(session.id).summary == nil)
  }

  @Test func aRegenerateCutOffBeforeItsFirstWordGivesTheOldAnswerBack() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Hi", "Hello!", "Where is the key?", "Under the mat."])
    try database.branch(session.id, at: 3, replacingWith: [answer(session, "In the")])
    var placeholder = answer(session, "")
    placeholder.state = .generating
    try database.branch(session.id, at: 3, replacingWith: [placeholder])
    // The process ended here; the next start repairs the profile.
    let report = try database.repairAfterCrash()
    #expect(report.removedPlaceholders == 1)
    #expect(try contents(database, session).last == "In the")
    #expect(try database.forks(in: session.id) == [MessageFork(position: 3, count: 2, current: 1)])

    // With one version left, the chat has no fork at all.
    let single = try chat(database, ["Hi", "Hello!"])
    try database.branch(single.id, at: 1, replacingWith: [placeholder])
    try database.repairAfterCrash()
    #expect(try contents(database, single) == ["Hi", "Hello!"])
    #expect(try database.forks(in: single.id).isEmpty)
    #expect(try database.branches(in: single.id).isEmpty)
  }

  @Test func refusesForksThatDoNotExist() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Hi", "Hello!"])
    #expect(throws: StoreError.self) { try database.branch(session.id, at: 7, replacingWith: []) }
    #expect(throws: StoreError.self) { try database.branch(UUID(), at: 0, replacingWith: []) }
    #expect(throws: StoreError.self) { try database.showAlternative(0, at: 1, in: session.id) }
    try database.branch(session.id, at: 1, replacingWith: [answer(session, "Hey")])
    #expect(throws: StoreError.self) { try database.showAlternative(2, at: 1, in: session.id) }
    #expect(try contents(database, session) == ["Hi", "Hey"])
  }

  @Test func exportAndImportKeepEveryVersionAndRenameOnAClash() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Plan a trip", "Where to?", "Rome", "Rome it is."])
    try database.branch(session.id, at: 3, replacingWith: [answer(session, "Rome, lovely.")])
    try database.branch(
      session.id, at: 2, replacingWith: [answer(session, "Paris", role: .user), answer(session, "Paris!")])
    let export = try database.export(session.id)
    #expect(export.format == 2)
    #expect(export.branches.forks == [MessageFork(position: 2, count: 2, current: 1)])

    // Through JSON, as a file would go, into the same database: new ids everywhere.
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let copy = try decoder.decode(SessionExport.self, from: try encoder.encode(export))
    let imported = try database.importSession(copy)
    #expect(imported.id != session.id)
    #expect(try contents(database, imported) == ["Plan a trip", "Where to?", "Paris", "Paris!"])
    try database.showAlternative(0, at: 2, in: imported.id)
    #expect(try contents(database, imported) == ["Plan a trip", "Where to?", "Rome", "Rome, lovely."])
    try database.showAlternative(0, at: 3, in: imported.id)
    #expect(try contents(database, imported).last == "Rome it is.")
    #expect(try database.messages(in: imported.id).allSatisfy { $0.sessionID == imported.id })
    // The original is untouched by what was done to the copy.
    #expect(try contents(database, session) == ["Plan a trip", "Where to?", "Paris", "Paris!"])

    // A chat without versions is still written as format 1, which older versions read.
    let plain = try chat(database, ["Hi", "Hello!"])
    #expect(try database.export(plain.id).format == 1)
  }

  @Test func refusesAnImportWhoseVersionsDoNotFit() throws {
    let database = try freshDatabase()
    let session = try chat(database, ["Hi", "Hello!"])
    try database.branch(session.id, at: 1, replacingWith: [answer(session, "Hey")])
    let good = try database.export(session.id)
    try database.deleteSession(session.id)

    var twoShown = good
    twoShown.branches = twoShown.branches.map { SessionBranch(position: $0.position, ordinal: $0.ordinal, tail: nil) }
    var outside = good
    outside.branches = outside.branches.map { branch in
      var moved = branch
      moved.position = 5
      return moved
    }
    var misplaced = good
    misplaced.branches = misplaced.branches.map { branch in
      guard var tail = branch.tail else { return branch }
      tail.messages = tail.messages.map { message in
        var shifted = message
        shifted.index = 4
        return shifted
      }
      return SessionBranch(position: branch.position, ordinal: branch.ordinal, tail: tail)
    }
    var oldFormat = good
    oldFormat.format = 1
    for bad in [twoShown, outside, misplaced, oldFormat] {
      #expect(throws: StoreError.self) { try database.importSession(bad) }
    }
    #expect(try database.sessionCount() == 0)
    #expect(try database.importSession(good).id == session.id)
  }
}
