public import Foundation

/// Where a local model keeps one conversation's evaluated state (its KV cache) between turns and restarts:
/// a file of the conversation's own in `directory`, written when the model goes idle and read at the
/// conversation's next turn. The state holds the conversation itself, so `directory` belongs to the profile.
public struct ConversationStateKey: Sendable, Hashable {
  /// The folder of the profile's conversation states.
  public var directory: URL
  /// The conversation's name (its id).
  public var name: String
  /// The most bytes the folder's files may take; the oldest go first.
  public var budgetBytes: UInt64

  /// A key for the conversation `name` in `directory`.
  public init(directory: URL, name: String, budgetBytes: UInt64 = 1 << 30) {
    self.directory = directory
    self.name = name
    self.budgetBytes = budgetBytes
  }

  /// How the names of the conversation's files begin (one file per model it was held by).
  public var filePrefix: String { Self.filePrefix(for: name) }

  static func filePrefix(for name: String) -> String {
    let safe = String(
      name.unicodeScalars.prefix(80).map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" })
    return safe + "-"
  }

  /// Removes every saved state of the conversation `name` in `directory` (when the conversation is deleted).
  public static func removeFiles(of name: String, in directory: URL) {
    let manager = FileManager.default
    guard let files = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
    let prefix = filePrefix(for: name)
    for file in files where file.hasPrefix(prefix) && file.hasSuffix(".kv") {
      try? manager.removeItem(at: directory.appendingPathComponent(file))
    }
  }
}
