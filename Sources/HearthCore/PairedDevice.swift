public import Foundation

/// A phone, tablet or other computer the user let into Hearth with a pairing code. Each holds a secret of its own
/// (a cookie in a browser, a bearer token for an API client), so one lost device is cut off without changing the
/// key everywhere. Only a hash of the secret is kept.
public struct PairedDevice: Sendable, Hashable, Codable, Identifiable {
  public var id: UUID
  /// The name the user gave it (or the browser's own description of itself).
  public var name: String
  public var createdAt: Date
  /// When it last reached Hearth, to the minute.
  public var lastUsedAt: Date?
  /// An app password: a calendar or contacts app's, which reaches the CalDAV and CardDAV routes (`/dav/`) and
  /// nothing else (not the chats, the models, nor the devices).
  public var isAppPassword: Bool

  public init(
    id: UUID = UUID(), name: String, createdAt: Date, lastUsedAt: Date? = nil, isAppPassword: Bool = false
  ) {
    self.id = id
    self.name = name
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
    self.isAppPassword = isAppPassword
  }

  private enum CodingKeys: String, CodingKey { case id, name, createdAt, lastUsedAt, isAppPassword }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(UUID.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    createdAt = try container.decode(Date.self, forKey: .createdAt)
    lastUsedAt = try container.decodeIfPresent(Date.self, forKey: .lastUsedAt)
    // Devices written before app passwords existed are full devices.
    isAppPassword = try container.decodeIfPresent(Bool.self, forKey: .isAppPassword) ?? false
  }
}

/// A short single-use code that lets one more device in, shown on a device that is already trusted.
public struct PairingCode: Sendable, Hashable, Codable {
  /// Eight letters and digits, grouped as `ABCD-EFGH`.
  public var code: String
  public var expiresAt: Date

  public init(code: String, expiresAt: Date) {
    self.code = code
    self.expiresAt = expiresAt
  }
}
