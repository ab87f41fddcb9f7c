import Foundation
import GRDB
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthStore

@Suite("The SQLite store", .heavy)
struct StoreTests {
  private func freshDatabase() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  private func message(_ session: ChatSession, _ role: ChatMessage.Role, _ text: String) -> StoredMessage {
    StoredMessage(sessionID: session.id, index: 0, role: role, content: text)
  }

  @Test func theProfileIsTheUsersAloneWhateverTheUmask() throws {
    let previous = umask(0o022)
    defer { umask(previous) }
    let folder = try TestModels.temporaryDirectory().appendingPathComponent("profile")
    let path = folder.appendingPathComponent("hearth.sqlite").path
    let database = try HearthDatabase(path: path)
    _ = try database.createSession(ChatSession(title: "private"))
    func mode(_ path: String) throws -> Int {
      try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
    }
    #expect(try mode(folder.path) == 0o700)
    for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
      #expect(try mode(file) == 0o600, "\(file)")
    }
    // A database left readable by others is narrowed when it is opened again.
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    _ = try HearthDatabase(path: path)
    #expect(try mode(path) == 0o600)
  }

  @Test func usesWriteAheadLoggingAndFullSync() throws {
    let database = try freshDatabase()
    let queue = try DatabaseQueue(path: database.path)
    #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    // FULL (2) on the connections the store itself reads and writes with, not SQLite's default.
    #expect(try database.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
    #expect(try database.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
    #expect(try database.integrityCheck() == ["ok"])
  }

  @Test func storesSessionsAndMessagesInOrder() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "Trip"))
    let first = try database.appendMessage(message(session, .user, "Plan a trip"))
    let second = try database.appendMessage(message(session, .assistant, "Where to?"))
    #expect(first.index == 0 && second.index == 1)
    var edited = second
    edited.content = "Where would you like to go?"
    edited.state = .cancelled
    edited.stopReason = .cancelled
    edited.thinking = "they did not say"
    edited.attachments = [Attachment(name: "map.png", mediaType: "image/png", byteCount: 1200)]
    try database.updateMessage(edited)
    let stored = try database.messages(in: session.id)
    #expect(stored.map(\.content) == ["Plan a trip", "Where would you like to go?"])
    #expect(stored[1].state == .cancelled && stored[1].stopReason == .cancelled)
    #expect(stored[1].attachments.first?.name == "map.png")
    #expect(try database.session(session.id).updatedAt >= session.updatedAt)
  }

  @Test func readsTheLastMessagesOfASessionInOrder() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "Long"))
    let other = try database.createSession(ChatSession(title: "Other"))
    for index in 0..<6 {
      try database.appendMessage(message(session, index.isMultiple(of: 2) ? .user : .assistant, "m\(index)"))
    }
    try database.appendMessage(message(other, .user, "elsewhere"))
    #expect(try database.lastMessages(in: session.id, count: 3).map(\.content) == ["m3", "m4", "m5"])
    #expect(try database.lastMessages(in: session.id, count: 10).map(\.content) == (0..<6).map { "m\($0)" })
    #expect(try database.lastMessages(in: session.id, count: 3).map(\.index) == [3, 4, 5])
    #expect(try database.lastMessages(in: session.id, count: 0).isEmpty)
  }

  @Test func listsPinnedFirstAndHidesArchived() throws {
    let database = try freshDatabase()
    let old = try database.createSession(ChatSession(title: "old", createdAt: Date(timeIntervalSince1970: 1)))
    let new = try database.createSession(ChatSession(title: "new", createdAt: Date(timeIntervalSince1970: 2)))
    let gone = try database.createSession(ChatSession(title: "gone", createdAt: Date(timeIntervalSince1970: 3)))
    try database.modifySession(old.id) { $0.isPinned = true }
    try database.modifySession(gone.id) { $0.isArchived = true }
    #expect(try database.sessions().map(\.title) == ["old", "new"])
    #expect(try database.sessions(includeArchived: true).map(\.title) == ["old", "gone", "new"])
    #expect(try database.session(matching: String(new.id.uuidString.prefix(8)).lowercased()).id == new.id)
  }

  @Test func deletingASessionDeletesItsMessages() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "x"))
    try database.appendMessage(message(session, .user, "hello"))
    try database.deleteSession(session.id)
    #expect(try database.messageCount() == 0)
    #expect(throws: StoreError.self) { try database.session(session.id) }
    #expect(try database.search("hello").isEmpty)
  }

  @Test func findsAWordFromTheFirstOfAThousandMessagesWithRanking() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "Long chat"))
    try database.appendMessage(message(session, .user, "Remember the zeppelin museum in Friedrichshafen"))
    for index in 1..<1000 {
      try database.appendMessage(
        message(session, index % 2 == 0 ? .user : .assistant, "Filler message number \(index)"))
    }
    let other = try database.createSession(ChatSession(title: "Zeppelin zeppelin facts"))
    try database.appendMessage(message(other, .user, "Zeppelins and more zeppelins: the zeppelin story"))

    let hits = try database.search("zeppelin")
    #expect(hits.count == 2)
    #expect(Set(hits.map(\.session.id)) == [session.id, other.id])
    #expect(hits.first?.session.id == other.id)
    #expect(hits.map(\.rank) == hits.map(\.rank).sorted())
    let bodies = try database.search("Friedrichshafen", scope: .bodies)
    #expect(bodies.first?.messageID != nil)
    #expect(bodies.first?.snippet.contains("[Friedrichshafen]") == true)
    #expect(try database.search("zeppelin", scope: .titles).map(\.session.id) == [other.id])
    #expect(try database.search("zeppelin", scope: .pinned).isEmpty)
    try database.modifySession(session.id) { $0.isPinned = true }
    #expect(try database.search("zeppelin", scope: .pinned).map(\.session.id) == [session.id])
    #expect(try database.search("   ").isEmpty)
    #expect(try database.search("\"unbalanced AND (").isEmpty)
  }

  @Test func exportAndImportRoundTripLosslessly() throws {
    let source = try freshDatabase()
    let session = try source.createSession(ChatSession(title: "Round trip", isPinned: true, model: "m.gguf"))
    try source.appendMessage(message(session, .system, "Be brief."))
    try source.appendMessage(message(session, .user, "Hi 🦙"))
    var answer = message(session, .assistant, "Hello!")
    answer.thinking = "greet back"
    answer.stopReason = .endOfGeneration
    answer.generatedTokens = 3
    answer.timeToFirstTokenMs = 12.5
    try source.appendMessage(answer)
    let export = try source.export(session.id)
    let data = try JSONEncoder().encode(export)

    let target = try freshDatabase()
    let imported = try target.importSession(try JSONDecoder().decode(SessionExport.self, from: data))
    #expect(try target.export(imported.id) == export)

    // Importing again into the same database makes a copy with fresh ids.
    let copy = try target.importSession(export)
    #expect(copy.id != session.id)
    #expect(try target.messages(in: copy.id).map(\.content) == export.messages.map(\.content))
  }

  @Test func rejectsAMalformedImportWithoutStoringAnything() throws {
    let database = try freshDatabase()
    let session = ChatSession(title: "bad")
    var broken = SessionExport(
      session: session,
      messages: [
        StoredMessage(sessionID: session.id, index: 0, role: .user, content: "a"),
        StoredMessage(sessionID: session.id, index: 2, role: .assistant, content: "b"),
      ])
    #expect(throws: StoreError.self) { try database.importSession(broken) }
    broken.messages[1].index = 1
    broken.messages[1].sessionID = UUID()
    #expect(throws: StoreError.self) { try database.importSession(broken) }
    #expect(try database.sessionCount() == 0)
    #expect(try database.messageCount() == 0)
  }

  @Test func reportsACorruptFileAndLeavesItAlone() throws {
    let path = try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try garbage.write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: StoreError.self) { try HearthDatabase(path: path) }
    guard case .corrupt = error else {
      Issue.record("expected .corrupt, got \(String(describing: error))")
      return
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
  }

  @Test func refusesADatabaseFromANewerVersion() throws {
    let database = try freshDatabase()
    let queue = try DatabaseQueue(path: database.path)
    try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
    let error = #expect(throws: StoreError.self) { try HearthDatabase(path: database.path) }
    guard case .newerVersion(_, let unknown) = error else {
      Issue.record("expected .newerVersion, got \(String(describing: error))")
      return
    }
    #expect(unknown == ["v99-from-the-future"])
  }

  @Test func reportsALockedDatabase() throws {
    let path = try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path
    let database = try HearthDatabase(path: path, busyTimeout: 0.2)
    let holder = try DatabaseQueue(path: path)
    try holder.inDatabase { db in
      try db.execute(sql: "BEGIN EXCLUSIVE")
      let error = #expect(throws: StoreError.self) { try database.createSession(ChatSession(title: "x")) }
      guard case .locked = error else {
        Issue.record("expected .locked, got \(String(describing: error))")
        return
      }
      try db.execute(sql: "ROLLBACK")
    }
    try database.createSession(ChatSession(title: "after"))
  }

  @Test func repairsWhatACrashLeftBehind() throws {
    let database = try freshDatabase()
    let session = try database.createSession(ChatSession(title: "x"))
    try database.appendMessage(message(session, .user, "Tell me a story"))
    var partial = message(session, .assistant, "Once upon a")
    partial.state = .generating
    try database.appendMessage(partial)
    var empty = message(session, .assistant, "")
    empty.state = .generating
    try database.appendMessage(empty)
    let report = try database.repairAfterCrash()
    #expect(report == RepairReport(interrupted: 1, removedPlaceholders: 1))
    let stored = try database.messages(in: session.id)
    #expect(stored.map(\.state) == [.complete, .interrupted])
    #expect(stored[1].content == "Once upon a")
  }

  @Test func prunesOldSessionsButNeverPinnedOrArchivedOnes() throws {
    let database = try freshDatabase()
    for index in 0..<10 {
      let session = try database.createSession(
        ChatSession(title: "s\(index)", createdAt: Date(timeIntervalSince1970: Double(index) * 86_400)))
      if index == 0 { try database.modifySession(session.id) { $0.isPinned = true } }
      if index == 1 { try database.modifySession(session.id) { $0.isArchived = true } }
    }
    let deleted = try database.prune(HistoryPolicy(maximumSessions: 5))
    #expect(deleted == 3)
    let titles = Set(try database.sessions(includeArchived: true).map(\.title))
    #expect(titles == ["s0", "s1", "s5", "s6", "s7", "s8", "s9"])
    let aged = try database.prune(
      HistoryPolicy(maximumAge: 2.5 * 86_400), now: Date(timeIntervalSince1970: 9 * 86_400))
    #expect(aged == 2)
    #expect(Set(try database.sessions(includeArchived: true).map(\.title)) == ["s0", "s1", "s7", "s8", "s9"])
  }
}

@Suite("Loading large sessions", .heavy)
struct LargeSessionTests {
  @Test func loadsTenThousandMessagesIntact() throws {
    let database = try HearthDatabase(
      path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
    let session = ChatSession(title: "big")
    let messages = (0..<10_000).map { index in
      StoredMessage(
        sessionID: session.id, index: index, role: index % 2 == 0 ? .user : .assistant, content: "message \(index)",
        state: index == 9_999 ? .cancelled : .complete, stopReason: index == 9_999 ? .cancelled : nil,
        attachments: index == 5 ? [Attachment(name: "a.txt", mediaType: "text/plain", byteCount: 3)] : [])
    }
    try database.importSession(SessionExport(session: session, messages: messages))
    let loaded = try database.messages(in: session.id)
    #expect(
      loaded
        == messages.map { message in
          var rounded = message
          rounded.createdAt = Date(timeIntervalSince1970: message.createdAt.timeIntervalSince1970)
          rounded.updatedAt = Date(timeIntervalSince1970: message.updatedAt.timeIntervalSince1970)
          return rounded
        })
  }
}

@Suite("The store's calendar candidates and people search", .heavy)
struct PersonalStoreTests {
  let utc = TimeZone(identifier: "UTC")!

  private func database() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  private func event(_ title: String, _ start: String, _ end: String, recurrence: Recurrence? = nil) -> CalendarEvent {
    CalendarEvent(
      title: title, start: LocalDateTime(parsing: start)!, end: LocalDateTime(parsing: end)!, recurrence: recurrence)
  }

  @Test func rangeQueriesFindSeriesThatStartedLongAgoAndSkipFinishedOnes() throws {
    let database = try database()
    try database.insert(event("Old one-off", "2020-01-01T09:00", "2020-01-01T10:00"))
    try database.insert(
      event("Weekly forever", "2020-01-06T09:00", "2020-01-06T10:00", recurrence: Recurrence(frequency: .weekly)))
    try database.insert(
      event("Ten dailies", "2020-01-01T09:00", "2020-01-01T10:00", recurrence: Recurrence(frequency: .daily, count: 10))
    )
    try database.insert(
      event(
        "Until 2030", "2026-01-01T09:00", "2026-01-01T10:00",
        recurrence: Recurrence(frequency: .monthly, until: LocalDateTime(parsing: "2030-01-01T09:00"))))
    // Floating times are placed on UTC with a margin: an event at 23:30 on the evening before still counts.
    try database.insert(event("Late", "2026-11-30T23:30", "2026-11-30T23:45"))
    let december = DateInterval(
      start: LocalDateTime(parsing: "2026-12-01T00:00")!.instant(in: utc),
      end: LocalDateTime(parsing: "2027-01-01T00:00")!.instant(in: utc))
    #expect(try database.events(touching: december).map(\.title).sorted() == ["Late", "Until 2030", "Weekly forever"])
    #expect(try database.events().count == 5)
  }

  @Test func contactSearchMatchesWordStartsWithoutAccents() throws {
    let database = try database()
    try database.insert(Contact(fullName: "Chloé Dubois", organization: "Acme"))
    try database.insert(Contact(fullName: "Zoë Ng"))
    #expect(try database.searchContacts("zoe").map(\.fullName) == ["Zoë Ng"])
    #expect(try database.searchContacts("dub ch").map(\.fullName) == ["Chloé Dubois"])
    #expect(try database.searchContacts("\"").isEmpty)
    try database.insert(Contact(id: "x", fullName: "A"))
    let duplicate = #expect(throws: StoreError.self) { try database.insert(Contact(id: "x", fullName: "B")) }
    #expect(duplicate?.description == "a contact with id x exists already")
    #expect(try database.item(Contact.self, id: "x")?.fullName == "A")
  }
}

@Suite("Stored responses of the Responses API")
struct StoredResponseTests {
  private func database() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  @Test func aResponseIsKeptReadBackForgottenAndTheOldestGoFirst() throws {
    let database = try database()
    let conversation: [ChatMessage] = [.user("What is the capital of France?"), .assistant("Paris.")]
    try database.storeResponse(
      StoredResponse(id: "resp_a", createdAt: Date(), model: "m.gguf", conversation: conversation))
    let kept = try #require(try database.storedResponse(id: "resp_a"))
    #expect(kept.conversation == conversation)
    #expect(kept.model == "m.gguf")
    #expect(try database.storedResponse(id: "resp_none") == nil)
    #expect(try database.deleteStoredResponse(id: "resp_a"))
    #expect(try database.storedResponse(id: "resp_a") == nil)
    #expect(try !database.deleteStoredResponse(id: "resp_a"))

    // Past its lifetime a response is dropped when the next one is stored.
    let old = Date().addingTimeInterval(-HearthDatabase.storedResponseLifetime - 60)
    try database.storeResponse(StoredResponse(id: "resp_old", createdAt: old, model: "m", conversation: []))
    try database.storeResponse(StoredResponse(id: "resp_new", createdAt: Date(), model: "m", conversation: []))
    #expect(try database.storedResponse(id: "resp_old") == nil)
    #expect(try database.storedResponse(id: "resp_new") != nil)
  }

  @Test func aConversationThatCannotBeReadBackIsAnErrorNotAnEmptyOne() throws {
    let database = try database()
    try database.storeResponse(
      StoredResponse(id: "resp_b", createdAt: Date(), model: "m", conversation: [.user("Hi")]))
    try database.write { db in
      try db.execute(
        sql: "UPDATE storedResponse SET conversation = ? WHERE id = ?", arguments: [Data("not json".utf8), "resp_b"])
    }
    #expect(throws: StoreError.self) { try database.storedResponse(id: "resp_b") }
  }
}
