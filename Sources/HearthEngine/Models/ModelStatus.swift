import Foundation
import LlamaKit

/// Whether an installed model can be chosen.
public enum ModelStatus: Sendable, Hashable {
  /// The header is valid and the size within bounds; `verified` when the file's SHA-256 matched the
  /// registry's (now or at a verification since which the file has not changed).
  case ready(verified: Bool)
  /// No file.
  case missing
  /// The file is there but cannot be used, and why.
  case invalid(String)

  /// Whether the model may be chosen.
  public var isUsable: Bool {
    if case .ready = self { return true }
    return false
  }
}

/// A registry entry as it stands on disk (`hearth models list`).
public struct RegisteredModel: Sendable, Hashable, Encodable {
  public var entry: ModelEntry
  /// Where its file is (or would be).
  public var path: String
  public var status: ModelStatus
  /// Whether it is the chosen model for its role.
  public var isActive: Bool
  /// Whether it comes from the bundled catalogue.
  public var isBundled: Bool
  /// What the header says, when it could be read.
  public var header: InstalledModel?

  public var id: String { entry.id }

  /// Whether its file is in the models folder (valid or not).
  public var isInstalled: Bool { status != .missing }

  enum CodingKeys: String, CodingKey {
    case id, role, file, path, size, status, problem, sha256, verified, active, bundled, source, architecture
    case displayName = "display_name"
    case parameterCount = "parameter_count"
    case fileType = "file_type"
    case contextLength = "context_length"
    case recommendedContext = "recommended_context"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entry.id, forKey: .id)
    try container.encode(entry.displayName, forKey: .displayName)
    try container.encode(entry.role, forKey: .role)
    try container.encode(entry.fileName, forKey: .file)
    try container.encode(path, forKey: .path)
    try container.encodeIfPresent(header?.fileSize, forKey: .size)
    switch status {
    case .ready(let verified):
      try container.encode("ready", forKey: .status)
      try container.encode(verified, forKey: .verified)
    case .missing:
      try container.encode("missing", forKey: .status)
    case .invalid(let problem):
      try container.encode("invalid", forKey: .status)
      try container.encode(problem, forKey: .problem)
    }
    try container.encodeIfPresent(entry.sha256, forKey: .sha256)
    try container.encode(isActive, forKey: .active)
    try container.encode(isBundled, forKey: .bundled)
    try container.encodeIfPresent(entry.source, forKey: .source)
    try container.encodeIfPresent(header?.architecture, forKey: .architecture)
    try container.encodeIfPresent(header?.parameterCount, forKey: .parameterCount)
    try container.encodeIfPresent(header?.fileType, forKey: .fileType)
    try container.encodeIfPresent(header?.contextLength, forKey: .contextLength)
    try container.encodeIfPresent(entry.recommendedContext, forKey: .recommendedContext)
  }
}

/// Checks a model file against its entry: there, within its size bounds, a valid GGUF header, and (when
/// asked and known) the right SHA-256.
enum ModelCheck {
  struct Outcome {
    var status: ModelStatus
    var header: InstalledModel?
    /// A new verification to record, when the file was hashed.
    var stamp: RegistryFile.Verification?
    /// The hash computed, when the file was hashed.
    var computedHash: String?
  }

  static func check(
    _ entry: ModelEntry, at path: String, recorded: RegistryFile.Verification?, hashing: Bool,
    progress: (UInt64) -> Void = { _ in }
  ) -> Outcome {
    guard let facts = FileFacts(path: path) else { return Outcome(status: .missing) }
    let (size, modified) = (facts.size, facts.modified)
    if let bounds = entry.sizeBounds, !bounds.contains(size) {
      let expected =
        bounds.lowerBound == bounds.upperBound
        ? "\(bounds.lowerBound) bytes" : "\(bounds.lowerBound)–\(bounds.upperBound) bytes"
      return Outcome(status: .invalid("its size is \(size) bytes, expected \(expected)"))
    }
    let header = ModelCatalog.describe(path: path, id: entry.id)
    if let problem = header.problem { return Outcome(status: .invalid(problem), header: header) }

    let stillValid = recorded.flatMap { $0.size == size && facts.wasModified(at: $0.modified) ? $0 : nil }
    var stamp: RegistryFile.Verification?
    var actual = stillValid?.sha256
    if hashing {
      do {
        let hash = try SHA256Digest.ofFile(path, progress: progress).hex()
        stamp = RegistryFile.Verification(size: size, modified: modified, sha256: hash)
        actual = hash
      } catch {
        return Outcome(status: .invalid("it cannot be read: \(error)"), header: header)
      }
    }
    guard let expected = entry.sha256 else {
      return Outcome(status: .ready(verified: false), header: header, stamp: stamp, computedHash: actual)
    }
    guard let actual else {
      return Outcome(status: .ready(verified: false), header: header)
    }
    guard actual == expected else {
      return Outcome(
        status: .invalid("its SHA-256 is \(actual), expected \(expected)"), header: header, stamp: stamp,
        computedHash: actual)
    }
    return Outcome(status: .ready(verified: true), header: header, stamp: stamp, computedHash: actual)
  }
}
