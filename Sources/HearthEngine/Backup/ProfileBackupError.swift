public import HearthBackup
public import HearthCore
public import HearthStore

/// Why a backup, a check or a restore of the profile did not happen; nothing of the profile was changed.
public enum ProfileBackupError: Error, Sendable, CustomStringConvertible {
  /// There is no profile to back up.
  case noProfile(path: String)
  /// App passwords were asked for without a passphrase.
  case passwordsNeedPassphrase
  /// A running Hearth holds the profile.
  case profileInUse(path: String)
  /// The profile holds data and the restore was not told to replace it.
  case profileNotEmpty(path: String)
  /// The profile's own database did not pass SQLite's check: no backup is taken of a damaged copy.
  case unsoundProfile(path: String, found: [String])
  /// The database inside the backup did not pass SQLite's check.
  case unsoundDatabase(backup: String, found: [String])
  /// The database inside the backup does not hold what its manifest says.
  case contentsDiffer(backup: String, table: String, expected: Int, found: Int)
  /// The backup file itself.
  case backup(BackupError)
  /// The profile's database.
  case store(StoreError)
  /// A file or folder of the profile.
  case files(path: String, detail: String)

  public var description: String {
    switch self {
    case .noProfile(let path): "there is no Hearth profile at \(path) to back up"
    case .passwordsNeedPassphrase:
      "--with-passwords needs --passphrase-file: app passwords are never written to an unencrypted backup"
    case .profileInUse(let path):
      "a running Hearth (hearth serve, a chat) is using the profile at \(path); stop it, then restore"
    case .profileNotEmpty(let path):
      "the profile at \(path) already holds data; pass --replace to keep it aside and restore over it"
    case .unsoundProfile(let path, let found):
      "the database \(path) is damaged (\(found.prefix(3).joined(separator: "; "))); no backup was taken, so the "
        + "older ones stay as they are (hearth doctor checks it, hearth restore brings the newest back)"
    case .unsoundDatabase(let backup, let found):
      "the database inside \(backup) is damaged (\(found.prefix(3).joined(separator: "; "))); nothing was restored"
    case .contentsDiffer(let backup, let table, let expected, let found):
      "the database inside \(backup) does not hold what the backup lists (\(table): \(found) rows, \(expected) listed)"
    case .backup(let error): error.description
    case .store(let error): error.description
    case .files(let path, let detail): "could not use \(path): \(detail)"
    }
  }
}

extension ProfileBackupError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .noProfile: ErrorCategory(.notFound)
    case .passwordsNeedPassphrase: ErrorCategory(.invalid, parameter: "with_passwords")
    case .profileInUse, .profileNotEmpty: ErrorCategory(.conflict, code: "profile_in_use")
    case .backup(.passphraseNeeded), .backup(.wrongPassphrase), .backup(.unusablePassphrase):
      ErrorCategory(.invalid, parameter: "passphrase")
    case .backup(.write), .backup(.extract), .files: ErrorCategory(.unavailable, code: "backup_not_written")
    case .store(let error): error.category
    case .unsoundProfile: ErrorCategory(.unavailable, code: "database_damaged")
    case .unsoundDatabase, .contentsDiffer, .backup: ErrorCategory(.invalid, code: "backup_damaged")
    }
  }
}
