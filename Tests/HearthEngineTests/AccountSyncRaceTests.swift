import Foundation
import HearthCore
import HearthDAV
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

/// The edges of two-way sync against real servers: a write that meets the phone's newer version (412), to-dos
/// that repeat, vCard 4.0 with Apple's groups, two members with one UID, and a listing that reads nothing twice.
@Suite("Accounts: races and edges of sync with real servers", .heavy, .enabled(if: DAVServer.isInstalled))
struct AccountSyncRaceTests {
  typealias Sync = AccountSyncTests

  /// Only the push of the account's collection of `content`: it meets what the phone wrote since the pull.
  static func pushOnly(_ engine: Engine, _ content: SyncCollection.Content = .events) async throws -> SyncReport {
    let accounts = engine.accounts
    let account = try accounts.account(named: "home")
    let collection = try #require(try engine.database.syncCollections(of: account.id).first { $0.content == content })
    let password = try accounts.passwords.load(for: account.id)
    return try await accounts.withClient(account, password: password) { client in
      var sync = CollectionSync(
        client: client, database: engine.database, account: account, collection: collection, timeZone: Sync.utc,
        now: { Date() }, reads: SharedReads())
      var report = SyncReport(collection: collection.displayName)
      try await sync.push(&report)
      return report
    }
  }

  @Test(arguments: DAVServer.Kind.allCases)
  func aChangeThatMeetsThePhonesNewerVersionIsMergedAndSent(_ kind: DAVServer.Kind) async throws {
    let (engine, server) = try await Sync.connected(kind)
    try server.phone("save", "family", server.file(Sync.event("phone-r", "Yoga")))
    _ = try await Sync.sync(engine)
    var yoga = try engine.calendar.event("phone-r")
    yoga.title = "Yoga class"
    _ = try engine.calendar.update(yoga)
    // The phone writes between Hearth's pull and its push: the push's If-Match no longer holds.
    try server.phone("edit", "family", "phone-r", "location", "Studio 2")
    let pushed = try await Self.pushOnly(engine)
    #expect(pushed.updated == 0)
    #expect(pushed.merged == 1, "\(pushed.summary)")
    let merged = try engine.calendar.event("phone-r")
    #expect(merged.title == "Yoga class")
    #expect(merged.location == "Studio 2")

    #expect(try await Sync.sync(engine).map(\.updated).reduce(0, +) == 1)
    let onPhone = try server.phone("get", "family", "phone-r")
    #expect(onPhone.contains("SUMMARY:Yoga class"), "\(onPhone)")
    #expect(onPhone.contains("LOCATION:Studio 2"), "\(onPhone)")
  }

  @Test(arguments: DAVServer.Kind.allCases)
  func aDeletionThatMeetsThePhonesEditBringsTheEditedItemBack(_ kind: DAVServer.Kind) async throws {
    let (engine, server) = try await Sync.connected(kind)
    try server.phone("save", "family", server.file(Sync.event("phone-d", "Book club")))
    _ = try await Sync.sync(engine)
    _ = try engine.calendar.delete("phone-d")
    try server.phone("edit", "family", "phone-d", "summary", "Book club (moved)")
    let pushed = try await Self.pushOnly(engine)
    #expect(pushed.deleted == 0)
    // The change wins: the item is back here, under the same link, with the phone's title.
    #expect(try engine.calendar.event("phone-d").title == "Book club (moved)")
    let account = try engine.accounts.account(named: "home")
    #expect(try engine.accounts.waitingChanges(of: account) == 0)
    let idle = try await Sync.sync(engine)
    #expect(idle.allSatisfy { $0.isEmpty }, "\(idle.map(\.summary))")
    #expect(try server.phone("list", "family").contains("Book club (moved)"))
  }

  @Test(arguments: DAVServer.Kind.allCases)
  func aRepeatingToDoWithAPriorityRoundTrips(_ kind: DAVServer.Kind) async throws {
    let (engine, server) = try await Sync.connected(kind)
    let todo = Sync.todo(
      "plants", "Water the plants",
      extra: [
        "DUE;VALUE=DATE:20261220", "RRULE:FREQ=WEEKLY", "PRIORITY:2", "X-PHONE-FLAG:blue", "BEGIN:VALARM",
        "ACTION:DISPLAY", "TRIGGER:-PT30M", "DESCRIPTION:Plants", "END:VALARM",
      ])
    try server.phone("save", "family", server.file(todo))
    _ = try await Sync.sync(engine)
    var plants = try #require(try engine.reminders.list().first { $0.id == "plants" })
    #expect(plants.priority == .high)
    #expect(plants.recurrence != nil)
    #expect(plants.due?.description == "2026-12-20")

    plants.title = "Water the plants and herbs"
    _ = try engine.reminders.update(plants)
    #expect(try await Sync.sync(engine).map(\.updated).reduce(0, +) == 1)
    let onPhone = try server.phone("get", "family", "plants")
    for kept in [
      "SUMMARY:Water the plants and herbs", "RRULE:FREQ=WEEKLY", "PRIORITY:2", "X-PHONE-FLAG:blue",
      "TRIGGER:-PT30M",
    ] {
      #expect(onPhone.contains(kept), "lost \(kept): \(onPhone)")
    }

    // The phone lowers it; Hearth reads it low, then raises it again.
    try server.phone("edit", "family", "plants", "priority", "9")
    _ = try await Sync.sync(engine)
    plants = try #require(try engine.reminders.list().first { $0.id == "plants" })
    #expect(plants.priority == .low)
    plants.priority = .high
    _ = try engine.reminders.update(plants)
    _ = try await Sync.sync(engine)
    let raised = try server.phone("get", "family", "plants")
    #expect(raised.contains("PRIORITY:1"), "\(raised)")
    #expect(raised.contains("RRULE:FREQ=WEEKLY"))
  }

  @Test(arguments: DAVServer.Kind.allCases)
  func aVCard4ContactTravelsBothWaysKeepingItsGroups(_ kind: DAVServer.Kind) async throws {
    let server = try DAVServer(kind)
    let book = kind == .radicale ? "\(server.user)/people" : "\(server.user)/contacts/addressbook"
    if kind == .radicale { try server.phone("make-addressbook", "people", "People") }
    let card =
      [
        "BEGIN:VCARD", "VERSION:4.0", "UID:rui", "FN:Rui Costa", "N:Costa;Rui;;Dr.;",
        "item1.TEL;TYPE=cell:+351 911 111 111", "item1.X-ABLabel:Mobile", "TEL;TYPE=home:+351 222 222 222",
        "END:VCARD",
      ].joined(separator: "\r\n") + "\r\n"
    try server.phone("put-card", book, "rui.vcf", server.file(card))
    let engine = try await Sync.engine()
    _ = try await engine.accounts.add(
      name: "home", service: .carddav, url: server.base, username: server.user, password: server.password)
    _ = try await Sync.sync(engine)
    var rui = try #require(try engine.contacts.list().first { $0.id == "rui" })
    #expect(rui.phones.count == 2)
    rui.phones[1].value = "+351 333 333 333"
    _ = try engine.contacts.update(rui)
    _ = try engine.contacts.create(Contact(fullName: "Inês Sousa", emails: [LabeledValue("ines@example.com")]))
    let sent = try await Sync.sync(engine)
    #expect(sent.map(\.updated).reduce(0, +) == 1)
    #expect(sent.map(\.created).reduce(0, +) == 1)

    let onPhone = try server.phone("get-card", book, "rui.vcf").lowercased()
    for kept in [
      "version:4.0", "item1.tel;type=cell:+351 911 111 111", "item1.x-ablabel:mobile", "+351 333 333 333",
      "n:costa;rui;;dr.;",
    ] {
      #expect(onPhone.contains(kept), "lost \(kept): \(onPhone)")
    }
    #expect(!onPhone.contains("222 222 222"))
    let cards = try server.phone("cards", book)
    #expect(cards.contains("FN:Inês Sousa"), "\(cards)")
    #expect(cards.components(separatedBy: "VERSION:4.0").count == 3, "\(cards)")
  }

  @Test func twoMembersWithOneUIDEachKeepAnItemOfTheirOwn() async throws {
    let (engine, server) = try await Sync.connected(.radicale)
    try server.phone("save", "family", server.file(Sync.event("twice", "Recital")))
    // Radicale refuses a second UID over its own protocol; a file written beside it (as a server that allows
    // it, or an import, would hold) is served all the same.
    let folder = server.storage.appendingPathComponent("collection-root/\(server.user)/family")
    try Sync.event("twice", "Recital rehearsal", day: 11).write(
      to: folder.appendingPathComponent("rehearsal.ics"), atomically: true, encoding: .utf8)
    _ = try await Sync.sync(engine)
    let titles = try engine.calendar.events().map(\.title).sorted()
    #expect(titles == ["Recital", "Recital rehearsal"])
    // Each stays with its own member: the next syncs move nothing.
    for _ in 0..<2 {
      let idle = try await Sync.sync(engine)
      #expect(idle.allSatisfy { $0.isEmpty }, "\(idle.map(\.summary))")
    }
    #expect(try engine.calendar.events().count == 2)
  }

  @Test func aListingReadsNoMemberTwice() async throws {
    let (engine, server) = try await Sync.connected(.radicale)
    try server.phone("save", "family", server.file(Sync.event("phone-l", "Piano")))
    try server.phone("save", "family", server.file(Sync.todo("todo-l", "Tune the piano")))
    let first = try await Sync.sync(engine)
    #expect(first.map(\.fetched).reduce(0, +) == 2, "\(first)")
    // A server that refuses the token: every member is listed, and none read before is read again, not even
    // the to-do the events collection passes over.
    let account = try engine.accounts.account(named: "home")
    for var collection in try engine.database.syncCollections(of: account.id) {
      collection.syncToken = "http://radicale.org/ns/sync/not-a-token-it-gave"
      try engine.database.saveSyncCollection(collection)
    }
    let listed = try await Sync.sync(engine)
    #expect(listed.allSatisfy { !$0.usedSyncToken && $0.fetched == 0 && $0.isEmpty }, "\(listed)")
  }

  @Test func aTokenThatLeavesOutChangesIsCaughtByTheDailyListing() async throws {
    let (engine, server) = try await Sync.connected(.radicale)
    for (uid, title) in [("phone-a", "Choir"), ("phone-b", "Chess club")] {
      try server.phone("save", "family", server.file(Sync.event(uid, title)))
    }
    _ = try await Sync.sync(engine)
    // Changes on the phone that a badly kept token never reports: the token is moved past them unread, as
    // such a server's report would leave them out.
    try server.phone("edit", "family", "phone-a", "summary", "Choir (new hall)")
    try server.phone("delete", "family", "phone-b")
    try server.phone("save", "family", server.file(Sync.event("phone-c", "Pottery")))
    let account = try engine.accounts.account(named: "home")
    let password = try engine.accounts.passwords.load(for: account.id)
    for var collection in try engine.database.syncCollections(of: account.id) {
      let remote = DAVCollection(href: collection.href, displayName: collection.displayName, content: .events)
      collection.syncToken = try await engine.accounts.withClient(account, password: password) { client in
        try await client.changes(in: remote, since: collection.syncToken).token
      }
      try engine.database.saveSyncCollection(collection)
    }
    let trusted = try await Sync.sync(engine)
    #expect(trusted.allSatisfy { $0.isEmpty && $0.usedSyncToken }, "\(trusted)")
    #expect(try engine.calendar.event("phone-a").title == "Choir")

    // A day on, the listing beside the report finds all three, and the calendar lists from then on.
    for var collection in try engine.database.syncCollections(of: account.id) {
      collection.checkedAt = Date().addingTimeInterval(-2 * 86_400)
      try engine.database.saveSyncCollection(collection)
    }
    let checked = try await Sync.sync(engine)
    #expect(checked.map(\.tokenMissed).reduce(0, +) == 3, "\(checked.map(\.summary))")
    #expect(try engine.calendar.events().map(\.title).sorted() == ["Choir (new hall)", "Pottery"])
    let events = try #require(try engine.database.syncCollections(of: account.id).first { $0.content == .events })
    #expect(events.tokenMissedChanges)
    try server.phone("save", "family", server.file(Sync.event("phone-d", "Quiz night")))
    let listed = try await Sync.sync(engine)
    #expect(listed.contains { !$0.usedSyncToken && $0.added == 1 }, "\(listed)")
  }
}
