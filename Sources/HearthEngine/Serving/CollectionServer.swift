import Crypto
public import Foundation
public import HearthCore
import HearthInterchange
public import HearthStore

/// A calendar, a reminder list or the address book, as Hearth serves it to CalDAV and CardDAV clients.
public struct ServedCollection: Sendable, Hashable {
  public var content: SyncCollection.Content
  /// Its name in Hearth: the calendar's or the list's; "" for the address book.
  public var name: String
  /// Its path segment under its home (`Personal`, `tasks~Reminders`, or what a client chose making it).
  public var segment: String
  /// The newest change in it (the collection's tag), 0 when it never held anything.
  public var tag: Int64
  /// Its color as a client set it.
  public var color: String?
  /// Where a client shows it among the others (`calendar-order`), as it set it.
  public var order: String?
  /// Whether a client made it (`MKCALENDAR`), at a segment of its own choosing.
  public var isMadeByClient = false

  public var kind: ItemKind { content == .events ? .event : content == .todos ? .reminder : .contact }
}

/// A point in the journal of changes: its entry's sequence and random nonce, written into a sync token as
/// `SEQUENCE-NONCE` (hex).
public struct SyncToken: Sendable, Hashable {
  public var sequence: Int64
  public var nonce: Data

  public init(sequence: Int64, nonce: Data) {
    (self.sequence, self.nonce) = (sequence, nonce)
  }

  /// The token as text (`42-9f3c…`).
  public var text: String { "\(sequence)-" + nonce.map { String(format: "%02x", $0) }.joined() }

  /// A token read back from `text`, `nil` when it is not one.
  public init?(text: String) {
    let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let sequence = Int64(parts[0]), sequence >= 0, parts[1].count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = parts[1].startIndex
    while index < parts[1].endIndex {
      let next = parts[1].index(index, offsetBy: 2)
      guard let byte = UInt8(parts[1][index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    (self.sequence, self.nonce) = (sequence, Data(bytes))
  }
}

/// One member of a served collection: its name, its body and that body's strong entity tag.
public struct ServedResource: Sendable, Hashable {
  /// Its name in its collection (`abc.ics`).
  public var name: String
  public var body: String
  /// The body's entity tag, quoted (`"3fa2…"`): it changes whenever the body does, whoever changed the item.
  public var etag: String
  public var item: StoredItem
  /// When the item last changed.
  public var updatedAt: Date
}

/// Why a write from a client was refused.
public enum ServedWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  case collectionNotFound(String)
  case memberNotFound(String)
  /// `If-Match` or `If-None-Match` did not hold (the client's copy is stale, or it meant to create).
  case preconditionFailed(String)
  case unreadable(String)
  /// The body holds no item of the collection's kind (a to-do put in a calendar of events).
  case wrongKind(String)
  /// Another member holds the same UID, or the member's UID would change.
  case uidConflict(String)
  /// A new calendar's name or address is one a collection has.
  case nameTaken(String)
  case storeFailed(String)

  public var description: String {
    switch self {
    case .collectionNotFound(let name): "there is no collection \(name)"
    case .memberNotFound(let name): "there is no member \(name)"
    case .preconditionFailed(let reason): "the precondition failed: \(reason)"
    case .unreadable(let reason): "the body could not be read: \(reason)"
    case .wrongKind(let reason): "the body does not fit this collection: \(reason)"
    case .uidConflict(let reason): "the UID conflicts: \(reason)"
    case .nameTaken(let reason): "the name is taken: \(reason)"
    case .storeFailed(let reason): "the change could not be saved: \(reason)"
    }
  }
}

/// The user's calendars, reminder lists and contacts as collections a CalDAV/CardDAV client reads and writes:
/// bodies written from the items (or, for what a client stored, its own body with Hearth's changes patched in),
/// entity tags from the bodies, and sync tokens from the journal the database keeps of every change.
public final class CollectionServer: Sendable {
  let context: ItemContext

  init(context: ItemContext) { self.context = context }

  /// How many entries of the change journal are kept (pruned when the profile opens): at one or two per change,
  /// a year of a busy life; a client whose token is older starts over.
  public static let journalLength = 100_000

  var database: HearthDatabase { context.database }

  /// The zone floating times are read in (time ranges of queries).
  public var timeZone: TimeZone { context.timeZone }

  /// Every collection: each calendar and reminder list that holds items or was made by a client (the default
  /// calendar and list always), and the address book.
  public func collections() throws -> [ServedCollection] {
    var all: [ServedCollection] = []
    for content in [SyncCollection.Content.events, .todos] {
      let kind: ItemKind = content == .events ? .event : .reminder
      let fallback = content == .events ? CalendarEvent.defaultCalendar : Reminder.defaultList
      let names = Set(try database.servedCollections(kind)).union([fallback]).sorted()
      for name in names { all.append(try collection(content, name: name)) }
    }
    all.append(try collection(.contacts, name: ""))
    // A segment a client chose is kept; a calendar of Hearth's whose own segment it took gets a `~` after it
    // (never part of an encoded name).
    let chosen = Set(all.filter(\.isMadeByClient).map(\.segment))
    for index in all.indices where !all[index].isMadeByClient && chosen.contains(all[index].segment) {
      all[index].segment += "~"
    }
    return all
  }

  /// The collection with this path segment under its home, `nil` when none has it.
  public func collection(segment: String, contacts: Bool) throws -> ServedCollection? {
    let all = try collections().filter { ($0.content == .contacts) == contacts }
    // The spelling this server wrote first; then the same name spelled with other escapes (`%40` for `@`).
    if let exact = all.first(where: { $0.segment == segment }) { return exact }
    let decoded = segment.removingPercentEncoding ?? segment
    return all.first { ($0.segment.removingPercentEncoding ?? $0.segment) == decoded }
  }

  private func collection(_ content: SyncCollection.Content, name: String) throws -> ServedCollection {
    let kind: ItemKind = content == .events ? .event : content == .todos ? .reminder : .contact
    let made = try database.servedCollection(kind, name: name)
    let segment =
      made?.segment
      ?? (content == .contacts ? "addressbook" : (content == .todos ? "tasks~" : "") + Self.encoded(name))
    return ServedCollection(
      content: content, name: name, segment: segment,
      tag: try database.latestServedChange(kind, collection: name), color: made?.color, order: made?.order,
      isMadeByClient: made != nil)
  }

  /// The server's sync token: the newest change to any served item, with that entry's nonce.
  public func latestChange() throws -> SyncToken {
    let latest = try database.latestServedChange()
    return SyncToken(sequence: latest.sequence, nonce: latest.nonce)
  }

  /// Whether `token` names an entry of this journal as it is (not one a restored backup rewound past).
  public func isCurrent(_ token: SyncToken) throws -> Bool {
    guard token.sequence > 0 else { return try token.nonce.isEmpty && database.servedJournalIsWhole() }
    return try database.servedChangeNonce(token.sequence) == token.nonce
  }

  /// Every member of `collection`.
  public func members(of collection: ServedCollection) throws -> [ServedResource] {
    try database.items(collection.kind, inCollection: collection.name).map { try resource($0) }
  }

  /// The member named `name`, `nil` when there is none.
  public func member(_ name: String, in collection: ServedCollection) throws -> ServedResource? {
    if let named = try database.servedMember(collection.kind, collection: collection.name, href: name),
      let item = try database.item(collection.kind, id: named.itemID)
    {
      return try resource(item)
    }
    let id = Self.id(fromName: name)
    if let item = try database.item(collection.kind, id: id), Self.collectionName(of: item) == collection.name,
      try database.servedMember(collection.kind, id: id) == nil
    {
      return try resource(item)
    }
    // A name made from the hash of an id that cannot be a file name.
    if name.hasPrefix("h-"), let hashed = try members(of: collection).first(where: { $0.name == name }) {
      return hashed
    }
    // The same name with its escapes decoded (`a%40b.ics` for `a@b.ics`).
    if let decoded = name.removingPercentEncoding, decoded != name { return try member(decoded, in: collection) }
    return nil
  }

  /// The members changed in `collection` after `token` (all of them without one), the names of those removed
  /// from it since, and the token to ask with next time.
  public func changes(
    in collection: ServedCollection, after token: SyncToken?
  ) throws -> (changed: [ServedResource], removed: [String], token: SyncToken) {
    let latest = try latestChange()
    // No token: the whole collection. A token of an empty journal (`0-`) is a listing taken before the first
    // change, so every change since counts.
    guard let token else { return (try members(of: collection), [], latest) }
    var changed: [ServedResource] = []
    var removed: [String] = []
    let entries = try database.servedChanges(collection.kind, collection: collection.name, after: token.sequence)
    for change in entries {
      if let item = try database.item(collection.kind, id: change.itemID),
        Self.collectionName(of: item) == collection.name
      {
        let now = try resource(item)
        changed.append(now)
        // Deleted and put back (an undo), an item a client had named is served under its own name again: the
        // client's name is gone.
        if let named = change.href, named != now.name { removed.append(named) }
      } else {
        removed.append(change.href ?? Self.name(forID: change.itemID, content: collection.content))
      }
    }
    return (changed, removed, latest)
  }

  // MARK: Bodies

  /// The member's body: what a client stored with Hearth's changes since written in, or a new one.
  func resource(_ item: StoredItem) throws -> ServedResource {
    let content: SyncCollection.Content = item.kind == .event ? .events : item.kind == .reminder ? .todos : .contacts
    let stamp = item.synced?.updatedAt ?? Date(timeIntervalSince1970: 0)
    let stored = try database.servedMember(item.kind, id: item.id)
    var body: String?
    if let stored, let before = try? Self.item(fromSnapshot: stored.snapshot, kind: item.kind) {
      body = SyncItems.patchedBody(stored.original, from: before, to: item, now: stamp)
    }
    guard let text = body ?? SyncItems.newBody(item, now: stamp) else {
      throw ServedWriteError.wrongKind("a \(item.kind.noun) is not served over CalDAV or CardDAV")
    }
    return ServedResource(
      name: stored?.href ?? Self.name(forID: item.id, content: content), body: text, etag: Self.etag(text), item: item,
      updatedAt: stamp)
  }

  /// A strong entity tag for `body`: the start of its SHA-256, quoted.
  static func etag(_ body: String) -> String {
    "\"" + hashPrefix(body, bytes: 12) + "\""
  }

  /// The first `bytes` of `text`'s SHA-256, in hex.
  private static func hashPrefix(_ text: String, bytes: Int) -> String {
    SHA256.hash(data: Data(text.utf8)).prefix(bytes).map { String(format: "%02x", $0) }.joined()
  }

  /// The item as JSON, to tell later what changed since a client stored it.
  static func snapshot(_ item: StoredItem) throws -> String {
    guard let synced = item.synced else { return "{}" }
    return String(decoding: try JSONEncoder().encode(synced), as: UTF8.self)
  }

  static func item(fromSnapshot snapshot: String, kind: ItemKind) throws -> StoredItem {
    let data = Data(snapshot.utf8)
    switch kind {
    case .event: return .event(try JSONDecoder().decode(CalendarEvent.self, from: data))
    case .reminder: return .reminder(try JSONDecoder().decode(Reminder.self, from: data))
    default: return .contact(try JSONDecoder().decode(Contact.self, from: data))
    }
  }

  static func collectionName(of item: StoredItem) -> String? {
    switch item {
    case .event(let event): event.calendar
    case .reminder(let reminder): reminder.list
    case .contact: ""
    default: nil
    }
  }

  // MARK: Names

  /// The characters a name keeps in a path segment; every other is percent-encoded (`~` too, which separates
  /// a list's prefix from its name).
  private static let kept = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

  static func encoded(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: kept) ?? name
  }

  /// The name of an item no client named: its id where that is safe in a path, else a hash of it.
  static func name(forID id: String, content: SyncCollection.Content) -> String {
    let suffix = content == .contacts ? ".vcf" : ".ics"
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@")
    let safe =
      !id.isEmpty && id.count <= 120 && !id.hasPrefix("h-")
      && id.unicodeScalars.allSatisfy { allowed.contains($0) }
    guard !safe else { return id + suffix }
    return "h-" + hashPrefix(id, bytes: 16) + suffix
  }

  static func id(fromName name: String) -> String {
    for suffix in [".ics", ".vcf"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
    return name
  }
}
