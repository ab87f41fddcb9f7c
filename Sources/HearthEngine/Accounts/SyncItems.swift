import Foundation
import HearthCore
import HearthInterchange
import HearthStore

/// The three kinds a collection can hold, seen through one shape: read from a server body, written as a new
/// body or patched into the one it came from, compared and merged field by field.
enum SyncItems {
  /// Why a member was not taken in: it holds nothing of this collection's kind (a to-do in a calendar read
  /// for its events), or it could not be read.
  enum Unread: Error, Sendable, Hashable {
    case otherKind
    /// The organiser cancelled it (`STATUS:CANCELLED`): Hearth keeps no cancelled event or to-do.
    case cancelled
    case unreadable(String)
  }

  /// The item a server body holds, placed in the collection's calendar or list.
  static func parse(
    _ body: String, in collection: SyncCollection, timeZone: TimeZone
  ) -> Result<StoredItem, Unread> {
    // A calendar holding both kinds is read twice, once for each: what holds none of this kind is passed over
    // before it is parsed.
    if collection.content == .events, !body.contains("BEGIN:VEVENT") { return .failure(.otherKind) }
    if collection.content == .todos, !body.contains("BEGIN:VTODO") { return .failure(.otherKind) }
    let data = Data(body.utf8)
    do {
      switch collection.content {
      case .events:
        let contents = try ICalendar.read(data, local: timeZone)
        guard var event = contents.events.items.first?.item else {
          return .failure(contents.reminders.items.isEmpty ? unread(contents.events.skipped) : .otherKind)
        }
        event.calendar = collection.localName
        return .success(.event(event))
      case .todos:
        let contents = try ICalendar.read(data, local: timeZone)
        guard var reminder = contents.reminders.items.first?.item else {
          return .failure(contents.events.items.isEmpty ? unread(contents.reminders.skipped) : .otherKind)
        }
        reminder.list = collection.localName
        return .success(.reminder(reminder))
      case .contacts:
        let parsed = try VCard.read(data)
        guard let contact = parsed.items.first?.item else { return .failure(unread(parsed.skipped)) }
        return .success(.contact(contact))
      }
    } catch {
      return .failure(.unreadable(error.description))
    }
  }

  private static func unread(_ skipped: [SkippedItem]) -> Unread {
    guard let reason = skipped.first?.reason else { return .unreadable("it holds no item") }
    return reason.hasSuffix("is cancelled") ? .cancelled : .unreadable(reason)
  }

  /// The body of an item that is new on the server.
  static func newBody(_ item: StoredItem, now: Date) -> String? {
    switch item {
    case .event(let event): SyncedBodies.new(event, now: now)
    case .reminder(let reminder): SyncedBodies.new(reminder, now: now)
    case .contact(let contact): SyncedBodies.new(contact)
    default: nil
    }
  }

  /// `original` with what changed from `old` to `new` written in.
  static func patchedBody(_ original: String, from old: StoredItem, to new: StoredItem, now: Date) -> String? {
    switch (old, new) {
    case (.event(let old), .event(let new)): SyncedBodies.patched(original, from: old, to: new, now: now)
    case (.reminder(let old), .reminder(let new)): SyncedBodies.patched(original, from: old, to: new, now: now)
    case (.contact(let old), .contact(let new)): SyncedBodies.patched(original, from: old, to: new, now: now)
    default: nil
    }
  }

  /// The media type of a member's body.
  static func contentType(_ content: SyncCollection.Content) -> String {
    content == .contacts ? "text/vcard; charset=utf-8" : "text/calendar; charset=utf-8"
  }

  /// The file name of a new member: the item's id where it is safe in a path, else a fresh one.
  static func memberName(for item: StoredItem, content: SyncCollection.Content) -> String {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.@"))
    let id = item.id
    let safe = !id.isEmpty && id.count <= 120 && id.unicodeScalars.allSatisfy { allowed.contains($0) && $0.isASCII }
    return (safe ? id : UUID().uuidString.lowercased()) + (content == .contacts ? ".vcf" : ".ics")
  }

  /// The item's fields, without the time stamps every copy rewrites: two versions with the same fingerprint
  /// say the same thing.
  static func fields(_ item: StoredItem) throws -> [String: JSONValue] {
    guard case .object(var object, _) = try encoded(item) else { return [:] }
    object["createdAt"] = nil
    object["updatedAt"] = nil
    return object.filter { $0.value != .null }
  }

  /// The item's fields as sorted JSON, its time stamps left out: one pass of the encoder, as every item of
  /// every collection is fingerprinted at every sync.
  static func fingerprint(_ item: StoredItem) throws -> String {
    guard var synced = item.synced else { return "" }
    (synced.createdAt, synced.updatedAt) = (.distantPast, .distantPast)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(synced), as: UTF8.self)
  }

  /// Both sides' changes to `base` together: a field only one side changed takes that side's value; a field
  /// both changed differently takes the server's, and its name is returned so the local version is kept.
  static func merge(
    base: StoredItem, local: StoredItem, server: StoredItem
  ) throws
    -> (merged: StoredItem, collided: [String])
  {
    let before = try fields(base)
    let mine = try fields(local)
    var merged = try fields(server)
    var collided: [String] = []
    for key in Set(before.keys).union(mine.keys).union(merged.keys).sorted() {
      let was = before[key]
      let now = mine[key]
      let there = merged[key]
      guard now != was else { continue }
      if there == was {
        merged[key] = now
      } else if there != now {
        collided.append(key)
      }
    }
    guard case .object(var all, _) = try encoded(server) else { return (server, collided) }
    for key in Set(all.keys).union(merged.keys) where key != "createdAt" && key != "updatedAt" {
      all[key] = merged[key]
    }
    let object = JSONValue.object(all.filter { $0.value != .null }, keys: all.keys.sorted())
    return (try decoded(object, like: server), collided)
  }

  private static func encoded(_ item: StoredItem) throws -> JSONValue {
    guard let synced = item.synced else { return .null }
    return try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(synced))
  }

  private static func decoded(_ value: JSONValue, like item: StoredItem) throws -> StoredItem {
    guard let synced = item.synced else { return item }
    return try decoded(value, as: synced)
  }

  /// `value` read as an item of the same kind as `example`.
  private static func decoded<Kind: SyncedKind>(_ value: JSONValue, as example: Kind) throws -> StoredItem {
    try JSONDecoder().decode(Kind.self, from: try JSONEncoder().encode(value)).stored
  }
}

/// What the three kinds a collection can hold have in common, so each step of a sync is written once.
protocol SyncedKind: Codable, Sendable {
  var id: String { get set }
  /// What the user calls it: a title or a name.
  var title: String { get set }
  var createdAt: Date { get set }
  var updatedAt: Date { get set }
  /// The item as the store takes it.
  var stored: StoredItem { get }
}

extension CalendarEvent: SyncedKind {
  var stored: StoredItem { .event(self) }
}

extension Reminder: SyncedKind {
  var stored: StoredItem { .reminder(self) }
}

extension Contact: SyncedKind {
  var title: String {
    get { fullName }
    set { fullName = newValue }
  }
  var stored: StoredItem { .contact(self) }
}

extension StoredItem {
  /// The item when it is of a kind a collection can hold.
  var synced: (any SyncedKind)? {
    switch self {
    case .event(let item): item
    case .reminder(let item): item
    case .contact(let item): item
    default: nil
    }
  }

  /// The same item under another id.
  func withID(_ id: String) -> StoredItem {
    guard var item = synced else { return self }
    item.id = id
    return item.stored
  }

  /// The calendar or list it is in (`nil` for a contact).
  var place: String? {
    switch self {
    case .event(let item): item.calendar
    case .reminder(let item): item.list
    default: nil
    }
  }

  /// What the user calls it: a title or a name.
  var title: String {
    switch self {
    case .note(let item): item.title
    case .habit(let item): item.name
    case .fact(let item): item.text
    case .habitLog(let item): item.habitID
    default: synced?.title ?? ""
    }
  }

  /// The local version of an item both sides changed in the same field, kept as its own item.
  func asConflictCopy(id: String, at date: Date) -> StoredItem {
    guard var item = synced else { return self }
    item.id = id
    item.title += " (Hearth's version)"
    (item.createdAt, item.updatedAt) = (date, date)
    return item.stored
  }

  /// When the item was made here.
  var createdAt: Date? { synced?.createdAt }
}
