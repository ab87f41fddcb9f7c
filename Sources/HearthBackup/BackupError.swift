/// What went wrong with a backup file, named so the user knows which file and what to do.
public enum BackupError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The backup could not be written (a full disk, a read-only folder); nothing half-written is left behind.
  case write(path: String, detail: String)
  /// A file held in the backup could not be written out while it was read back (a full disk, a read-only
  /// folder); the restore stops and the profile is left as it was.
  case extract(path: String, detail: String)
  /// A file could not be read, either the backup or one of the files it should hold.
  case read(path: String, detail: String)
  /// The file does not start the way a Hearth backup does.
  case notABackup(path: String)
  /// The backup was written in a format this version of Hearth does not read.
  case unsupportedFormat(path: String, detail: String)
  /// The backup is encrypted and no passphrase was given.
  case passphraseNeeded(path: String)
  /// The passphrase does not open this backup.
  case wrongPassphrase(path: String)
  /// The backup was opened but part of it is damaged or missing: it cannot be trusted.
  case damaged(path: String, detail: String)
  /// The backup names a file outside the folder it is restored into.
  case unsafeEntry(path: String, entry: String)
  /// The passphrase itself cannot be used (it is empty).
  case unusablePassphrase(String)

  public var description: String {
    switch self {
    case .write(let path, let detail):
      return "could not write the backup \(path): \(detail); nothing was left half-written"
    case .extract(let path, let detail):
      return "could not write \(path) out of the backup: \(detail); the profile was left as it was"
    case .read(let path, let detail): return "could not read \(path): \(detail)"
    case .notABackup(let path): return "\(path) is not a Hearth backup"
    case .unsupportedFormat(let path, let detail):
      return "\(path) is a backup this version of Hearth cannot read (\(detail))"
    case .passphraseNeeded(let path):
      return "\(path) is encrypted: give its passphrase with --passphrase-file"
    case .wrongPassphrase(let path): return "the passphrase does not open \(path)"
    case .damaged(let path, let detail): return "the backup \(path) is damaged: \(detail)"
    case .unsafeEntry(let path, let entry):
      return "the backup \(path) names a file outside the profile (\(entry)); it was not restored"
    case .unusablePassphrase(let why): return "the passphrase cannot be used: \(why)"
    }
  }
}
