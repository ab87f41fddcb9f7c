public import Foundation

/// A server account whose calendars, task lists or address books Hearth keeps in step with its own store.
/// The password is not here: it is kept in a file of its own, readable by the user only.
public struct Account: Hashable, Sendable, Codable, Identifiable {
  /// The protocol the account speaks.
  public enum Service: String, Hashable, Sendable, Codable, CaseIterable {
    case caldav
    case carddav
  }

  public var id: String
  /// The name the user knows it by (`fastmail`, `home`), unique in the profile.
  public var name: String
  public var service: Service
  /// The URL the user gave: a server, a principal or a home.
  public var url: URL
  public var username: String
  /// Whether the user allowed plain http to a host that is not this machine (passwords cross the network in
  /// the clear).
  public var allowsPlainHTTP: Bool
  public var createdAt: Date
  public var lastSyncAt: Date?
  /// The last sync's failure in words, `nil` after one that succeeded.
  public var lastError: String?

  public init(
    id: String = UUID().uuidString, name: String, service: Service, url: URL, username: String,
    allowsPlainHTTP: Bool = false, createdAt: Date = Date(), lastSyncAt: Date? = nil, lastError: String? = nil
  ) {
    self.id = id
    self.name = name
    self.service = service
    self.url = url
    self.username = username
    self.allowsPlainHTTP = allowsPlainHTTP
    self.createdAt = createdAt
    self.lastSyncAt = lastSyncAt
    self.lastError = lastError
  }
}

/// One collection of an account as Hearth keeps it: where its items go and how far the last sync got.
public struct SyncCollection: Hashable, Sendable, Codable, Identifiable {
  /// What the collection holds.
  public enum Content: String, Hashable, Sendable, Codable, CaseIterable {
    case events
    case todos
    case contacts
  }

  public var id: String
  public var accountID: String
  /// The collection's path on the server.
  public var href: String
  public var content: Content
  /// The server's name for it.
  public var displayName: String
  /// The calendar or reminder list its items have in Hearth (empty for an address book).
  public var localName: String
  /// Whether it syncs; the user may turn a collection off.
  public var isEnabled: Bool
  /// Where Hearth's own new items of this kind go, one per account and kind.
  public var isDefault: Bool
  /// RFC 6578's token after the last sync, `nil` when the server offers none or it was refused.
  public var syncToken: String?
  /// The collection's change tag at the last sync.
  public var ctag: String?
  public var color: String?
  /// When every member's entity tag was last listed beside the sync token's report, to catch a server that
  /// keeps its tokens badly (`nil`: never).
  public var checkedAt: Date?
  /// Whether such a listing found a change the token had not reported: the collection is synced by listing
  /// every member from then on, which never misses one.
  public var tokenMissedChanges: Bool

  public init(
    id: String = UUID().uuidString, accountID: String, href: String, content: Content, displayName: String,
    localName: String, isEnabled: Bool = true, isDefault: Bool = false, syncToken: String? = nil,
    ctag: String? = nil, color: String? = nil, checkedAt: Date? = nil, tokenMissedChanges: Bool = false
  ) {
    self.id = id
    self.accountID = accountID
    self.href = href
    self.content = content
    self.displayName = displayName
    self.localName = localName
    self.isEnabled = isEnabled
    self.isDefault = isDefault
    self.syncToken = syncToken
    self.ctag = ctag
    self.color = color
    self.checkedAt = checkedAt
    self.tokenMissedChanges = tokenMissedChanges
  }

  /// The kind of Hearth item the collection's members become.
  public var itemKind: ItemKind {
    switch content {
    case .events: .event
    case .todos: .reminder
    case .contacts: .contact
    }
  }
}

/// What links one of Hearth's items to its copy on a server.
public struct SyncedItem: Hashable, Sendable, Codable {
  public var collectionID: String
  public var itemKind: ItemKind
  public var itemID: String
  /// The member's path on the server.
  public var href: String
  /// The entity tag of the version last read or written; `nil` for a member not yet on the server.
  public var etag: String?
  /// The member's whole body as last read or written: what Hearth patches, so that what it does not model
  /// (alarms, attendees, X- properties, overrides) survives.
  public var original: String
  /// The item as it was at the last sync (``SyncFingerprint``): a local change shows as a difference.
  public var fingerprint: String

  public init(
    collectionID: String, itemKind: ItemKind, itemID: String, href: String, etag: String?, original: String,
    fingerprint: String
  ) {
    self.collectionID = collectionID
    self.itemKind = itemKind
    self.itemID = itemID
    self.href = href
    self.etag = etag
    self.original = original
    self.fingerprint = fingerprint
  }
}
