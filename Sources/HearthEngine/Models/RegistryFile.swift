import Foundation

/// `registry.json` in the models folder: the user's own model entries, the model chosen for each role, and
/// what the last full verification of each file found (so listing need not hash every file again).
struct RegistryFile: Codable, Sendable, Equatable {
  /// Proof that a file had a given hash when it last had this size and modification time.
  struct Verification: Codable, Sendable, Equatable {
    var size: UInt64
    var modified: Double
    var sha256: String

    enum CodingKeys: String, CodingKey, CaseIterable { case size, modified, sha256 }

    init(size: UInt64, modified: Double, sha256: String) {
      self.size = size
      self.modified = modified
      self.sha256 = sha256
    }

    init(from decoder: any Decoder) throws {
      try RegistryFile.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
      let container = try decoder.container(keyedBy: CodingKeys.self)
      size = try container.decode(UInt64.self, forKey: .size)
      modified = try container.decode(Double.self, forKey: .modified)
      sha256 = try container.decode(String.self, forKey: .sha256)
    }
  }

  static let currentVersion = 1

  var version = currentVersion
  /// The chosen model's id by role (`chat`, `embedding`).
  var active: [String: String] = [:]
  var models: [ModelEntry] = []
  /// By file name.
  var verified: [String: Verification] = [:]

  enum CodingKeys: String, CodingKey, CaseIterable { case version, active, models, verified }

  init() {}

  init(from decoder: any Decoder) throws {
    try Self.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard version == Self.currentVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container,
        debugDescription: "version \(version) is not one this Hearth reads (\(Self.currentVersion))")
    }
    active = try container.decodeIfPresent([String: String].self, forKey: .active) ?? [:]
    for role in active.keys where ModelRole(rawValue: role) == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .active, in: container, debugDescription: "active: \(role) is not a model role (chat, embedding)")
    }
    models = try container.decodeIfPresent([ModelEntry].self, forKey: .models) ?? []
    verified = try container.decodeIfPresent([String: Verification].self, forKey: .verified) ?? [:]
  }

  /// Throws naming the first key of the object being decoded that is not in `known`: a field is honoured or
  /// refused, never skipped.
  static func refuseUnknownKeys(in decoder: any Decoder, known: [String]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "\(unknown.stringValue) is not a field here (known: \(known.joined(separator: ", ")))"))
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
