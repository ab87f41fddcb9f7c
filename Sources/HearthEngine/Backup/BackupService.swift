public import Foundation
import HearthBackup
public import HearthCore
import HearthStore
import Logging
import Synchronization

/// How `hearth serve` backs the profile up by itself.
public struct BackupSettings: Codable, Sendable, Hashable {
  /// Whether backups are taken on a schedule while `hearth serve` runs.
  public var scheduled: Bool
  /// Hours between scheduled backups (1 to 168).
  public var everyHours: Double
  /// The folder they go into; `nil` is `backups` in the profile folder.
  public var folder: String?
  /// A file whose first line seals them; `nil` leaves them unencrypted (readable by the user only).
  public var passphraseFile: String?
  /// Whether they hold the accounts' app passwords (only with a passphrase).
  public var includesPasswords: Bool

  public init(
    scheduled: Bool = true, everyHours: Double = 24, folder: String? = nil, passphraseFile: String? = nil,
    includesPasswords: Bool = false
  ) {
    (self.scheduled, self.everyHours, self.folder) = (scheduled, everyHours, folder)
    (self.passphraseFile, self.includesPasswords) = (passphraseFile, includesPasswords)
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case scheduled, everyHours, folder, passphraseFile, includesPasswords
  }

  /// Fields left out keep their defaults, so settings saved by an older Hearth still read.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = BackupSettings()
    scheduled = try values.decodeIfPresent(Bool.self, forKey: .scheduled) ?? defaults.scheduled
    everyHours = try values.decodeIfPresent(Double.self, forKey: .everyHours) ?? defaults.everyHours
    folder = try values.decodeIfPresent(String.self, forKey: .folder)
    passphraseFile = try values.decodeIfPresent(String.self, forKey: .passphraseFile)
    includesPasswords = try values.decodeIfPresent(Bool.self, forKey: .includesPasswords) ?? false
  }
}

/// The outcome of the last backup this process took.
public struct BackupOutcome: Codable, Sendable, Hashable {
  public var at: Date
  public var file: String?
  public var error: String?
}

/// Settings that cannot be used, named by their field.
public struct BackupSettingsError: Error, Sendable, CustomStringConvertible {
  /// The field, as the API spells it.
  public var field: String
  public var reason: String
  public var description: String { "\(field): \(reason)" }
}

/// Backups from `hearth serve`: its settings, taking one now, the backups in the folder, and the schedule
/// (``BackupSchedule``) with its rotation. One backup at a time; each runs off the request threads.
public final class BackupService: Sendable {
  private static let settingsKey = "backups"
  /// Scheduled backups are named so, and only they are rotated: a backup the user took stays.
  static let scheduledPrefix = "hearth-auto-"

  let database: HearthDatabase
  let backup: ProfileBackup
  let logger: Logger
  private let state = Mutex<(running: Bool, last: BackupOutcome?)>((false, nil))

  init(database: HearthDatabase, paths: HearthPaths, now: @escaping @Sendable () -> Date, logger: Logger) {
    self.database = database
    self.backup = ProfileBackup(paths: paths, now: now)
    self.logger = logger
  }

  /// The saved settings, or the defaults.
  public func settings() throws -> BackupSettings {
    try database.setting(Self.settingsKey, as: BackupSettings.self) ?? BackupSettings()
  }

  /// Checks and saves `settings`.
  /// - Throws: ``BackupSettingsError`` naming the field that cannot be used.
  public func save(_ settings: BackupSettings) throws {
    guard (1...168).contains(settings.everyHours) else {
      throw BackupSettingsError(field: "every_hours", reason: "must be between 1 and 168 hours")
    }
    if let folder = settings.folder, !folder.hasPrefix("/") {
      throw BackupSettingsError(field: "folder", reason: "must be an absolute path")
    }
    if let file = settings.passphraseFile {
      do {
        _ = try ProfileBackup.passphrase(fromFile: file)
      } catch {
        throw BackupSettingsError(field: "passphrase_file", reason: error.description)
      }
    }
    if settings.includesPasswords, settings.passphraseFile == nil {
      throw BackupSettingsError(
        field: "includes_passwords", reason: "needs a passphrase file: app passwords are never written unencrypted")
    }
    try database.setSetting(Self.settingsKey, to: settings)
  }

  /// The folder backups go into.
  public func folder() throws -> URL {
    try settings().folder.map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? ProfileBackup.defaultFolder(of: backup.paths)
  }

  /// The backups in the folder, newest first.
  public func list() throws -> [BackupSummary] { backup.list(in: try folder()) }

  /// Whether a backup is being taken, and how the last one went.
  public func status() -> (running: Bool, last: BackupOutcome?) { state.withLock { $0 } }

  /// Takes a backup now with the saved settings, off the request threads.
  /// - Throws: ``BackupBusyError`` while another is being taken; ``ProfileBackupError`` when it fails.
  public func takeNow(scheduled: Bool = false) async throws -> BackupSummary {
    let started = state.withLock { state in
      guard !state.running else { return false }
      state.running = true
      return true
    }
    guard started else { throw BackupBusyError() }
    let now = backup.now()
    do {
      let settings = try settings()
      var options = BackupOptions(folder: try folder())
      options.passphrase = try settings.passphraseFile.map(ProfileBackup.passphrase(fromFile:))
      options.includesPasswords = settings.includesPasswords
      let backup = backup
      let name = scheduled ? Self.scheduledPrefix : "hearth-"
      let chosen = options
      let summary = try await Self.offThread { try backup.create(chosen, named: name) }
      state.withLock { $0 = (false, BackupOutcome(at: now, file: summary.file, error: nil)) }
      return summary
    } catch {
      state.withLock { $0 = (false, BackupOutcome(at: now, file: nil, error: "\(error)")) }
      throw error
    }
  }

  /// Removes the scheduled backups the rotation lets go; returns their files.
  @discardableResult
  public func rotate(calendar: Calendar = .current) throws -> [String] {
    let scheduled = try list().filter {
      URL(fileURLWithPath: $0.file).lastPathComponent.hasPrefix(Self.scheduledPrefix)
    }
    let kept = BackupRotation(calendar: calendar).kept(scheduled.map(\.created), now: backup.now())
    var removed: [String] = []
    for summary in scheduled where !kept.contains(summary.created) {
      try FileManager.default.removeItem(atPath: summary.file)
      removed.append(summary.file)
    }
    return removed
  }

  /// When the newest scheduled backup was taken.
  func lastScheduled() throws -> Date? {
    try list().first { URL(fileURLWithPath: $0.file).lastPathComponent.hasPrefix(Self.scheduledPrefix) }?.created
  }

  private static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result { try body() }) }
    }
  }
}

/// A backup was asked for while another is being taken.
public struct BackupBusyError: Error, Sendable, CustomStringConvertible {
  public var description: String { "a backup is being taken right now; try again when it is done" }
}

extension BackupSettingsError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.invalid, parameter: field) }
}

extension BackupBusyError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.conflict, code: "backup_running") }
}
