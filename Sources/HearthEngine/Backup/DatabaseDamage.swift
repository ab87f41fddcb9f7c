import Foundation
import HearthStore
public import Logging

/// The profile's database failed SQLite's check at start: Hearth stops before writing a byte to it, says which
/// file and what the check found, and names the newest backup to restore.
public struct DatabaseDamageError: Error, Sendable, CustomStringConvertible {
  /// The database file.
  public var path: String
  /// What the check reported (its first lines).
  public var found: [String]
  /// The newest backup in the backup folder, if there is one.
  public var latestBackup: BackupSummary?
  /// Where backups were looked for.
  public var backupFolder: String

  public var description: String {
    let findings = found.prefix(3).joined(separator: "; ")
    var text = "the database \(path) is damaged (\(findings)); Hearth has not written to it. "
    if let latest = latestBackup {
      let when = ISO8601DateFormatter().string(from: latest.created)
      text += "Restore the newest backup, taken \(when): hearth restore --replace \(latest.file)"
      text += latest.encrypted ? " --passphrase-file FILE" : ""
      text += " (the damaged file is kept aside)."
    } else {
      text += "No backup was found in \(backupFolder); copy the file somewhere safe before trying to repair it."
    }
    return text
  }
}

extension ProfileBackup {
  /// SQLite's quick check of the profile's database, read-only and before anything opens it for writing.
  /// - Throws: ``DatabaseDamageError`` naming the newest backup when the check finds damage.
  public func checkAtStart(logger: Logger) throws {
    let path = paths.database.path
    let found: [String]
    do {
      found = try HearthDatabase.quickCheck(fileAt: path)
    } catch {
      guard case .corrupt(_, let detail) = error else { throw error }
      found = [detail]
    }
    guard found != ["ok"] else { return }
    let folder =
      HearthDatabase.setting(fileAt: path, "backups", as: BackupSettings.self)?.folder.map {
        URL(fileURLWithPath: $0, isDirectory: true)
      } ?? Self.defaultFolder(of: paths)
    logger.critical("the database is damaged", metadata: ["findings": "\(found.count)"])
    throw DatabaseDamageError(path: path, found: found, latestBackup: list(in: folder).first, backupFolder: folder.path)
  }
}
