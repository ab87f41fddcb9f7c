public import Foundation

/// The table of contents at the end of a backup: every file with its size and SHA-256, and what the profile
/// held, so that a backup can be checked without restoring it and a restore compared with its source.
public struct BackupManifest: Codable, Sendable, Equatable {
  /// One file of the backup, by its path inside the profile.
  public struct Entry: Codable, Sendable, Equatable {
    /// The path relative to the profile folder, `/`-separated.
    public var path: String
    /// Its size in bytes.
    public var size: UInt64
    /// Its SHA-256, lowercase hex.
    public var sha256: String
    /// Its permission bits (the user's part only is restored).
    public var mode: Int

    public init(path: String, size: UInt64, sha256: String, mode: Int) {
      (self.path, self.size, self.sha256, self.mode) = (path, size, sha256, mode)
    }
  }

  /// When the backup was taken.
  public var created: Date
  /// The files, in the order they are stored.
  public var entries: [Entry]
  /// Rows per table of the database as it was copied, to compare a restore or a verification against.
  public var tables: [String: Int]
  /// What was asked for beyond the data: `passwords`, `conversation states`, `models`.
  public var includes: [String]
  /// The folder the files were taken from, for what names them by their full path.
  public var sourceFolder: String?

  public init(
    created: Date, entries: [Entry] = [], tables: [String: Int] = [:], includes: [String] = [],
    sourceFolder: String? = nil
  ) {
    (self.created, self.entries, self.tables, self.includes) = (created, entries, tables, includes)
    self.sourceFolder = sourceFolder
  }

  /// The bytes of all files together.
  public var totalSize: UInt64 { entries.reduce(0) { $0 + $1.size } }
}

/// Paths a backup may hold: relative, `/`-separated, with no `.` or `..` part, so a restore writes only inside
/// the folder it restores into whatever the file says.
public enum BackupPath {
  public static func isSafe(_ path: String) -> Bool {
    guard !path.isEmpty, !path.hasPrefix("/"), path.utf8.count <= 1024 else { return false }
    guard !path.contains("\\"), !path.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return false }
    return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
      !$0.isEmpty && $0 != "." && $0 != ".."
    }
  }
}

/// The records inside a backup's compressed stream: each file (its entry, its bytes, its SHA-256), then the
/// manifest.
enum PayloadRecord: UInt8 {
  case file = 1
  case manifest = 2

  static let largestEntry = 64 * 1024
  static let largestManifest = 16 << 20

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()
}

/// A file's entry as stored before its bytes.
struct StoredEntry: Codable {
  var path: String
  var size: UInt64
  var mode: Int
}
