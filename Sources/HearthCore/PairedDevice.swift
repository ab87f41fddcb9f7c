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

  public init(id: UUID = UUID(), name: String, createdAt: Date, lastUsedAt: Date? = nil) {
    self.id = id
    self.name = name
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
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
