public import Foundation

/// A calendar, task list or address book on a server.
public struct DAVCollection: Sendable, Hashable, Codable {
  /// What a collection holds, and so where its items go in Hearth.
  public enum Content: String, Sendable, Hashable, Codable, CaseIterable {
    /// VEVENT: a calendar.
    case events
    /// VTODO: a reminder list.
    case todos
    /// vCards: an address book.
    case contacts
  }

  /// The collection's path on the server (as the server wrote it, ending in `/`).
  public var href: String
  public var displayName: String
  public var content: Content
  /// The collection's change tag (`getctag`), when the server offers one.
  public var ctag: String?
  /// Whether the server offers `sync-collection` (RFC 6578) here: it listed a `sync-token`.
  public var offersSyncToken: Bool
  /// `#RRGGBB` when the server keeps a colour.
  public var color: String?

  public init(
    href: String, displayName: String, content: Content, ctag: String? = nil, offersSyncToken: Bool = false,
    color: String? = nil
  ) {
    self.href = href
    self.displayName = displayName
    self.content = content
    self.ctag = ctag
    self.offersSyncToken = offersSyncToken
    self.color = color
  }
}

/// A member of a collection: its path and entity tag.
public struct DAVMember: Sendable, Hashable {
  public var href: String
  public var etag: String

  public init(href: String, etag: String) {
    self.href = href
    self.etag = etag
  }
}

/// What changed in a collection since a sync token.
public struct DAVChanges: Sendable, Hashable {
  /// Members added or changed, with their new entity tags.
  public var changed: [DAVMember]
  /// Paths of members removed.
  public var removed: [String]
  /// The token to send next time.
  public var token: String?

  public init(changed: [DAVMember], removed: [String], token: String?) {
    self.changed = changed
    self.removed = removed
    self.token = token
  }
}

/// A member's body as fetched.
public struct DAVResource: Sendable, Hashable {
  public var href: String
  public var etag: String
  public var data: Data

  public init(href: String, etag: String, data: Data) {
    self.href = href
    self.etag = etag
    self.data = data
  }
}
