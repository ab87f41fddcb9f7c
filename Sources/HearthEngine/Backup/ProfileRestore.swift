public import Foundation
import HearthBackup
import HearthCore
import HearthStore

/// What a restore did.
public struct RestoreReport: Sendable, Codable, Hashable {
  /// The backup restored, as checked before anything was moved.
  public var backup: BackupSummary
  /// Where the profile's former files now are; `nil` when the profile was empty.
  public var keptAside: String?
  /// Accounts whose app password is not in the restored profile: they sync again once it is given.
  public var accountsWithoutPassword: [String]
  /// Paired devices the backup held that the profile restored over no longer had (revoked since the backup was
  /// made): they stay revoked. The profile's own devices, secrets and push subscriptions are kept.
  public var devicesLeftRevoked: [String] = []
  /// Paired devices that came back with the backup because there was no readable profile to keep them from (a
  /// new machine, a damaged database): worth a look, since one revoked after the backup is paired again.
  public var devicesFromBackup: [String] = []
}

extension ProfileBackup {
  /// Restores the backup at `file` into the profile.
  ///
  /// The whole backup is read and checked first (every checksum, SQLite's full check of its database, the rows
  /// it lists), beside the profile; only then are files moved, each by a rename. A profile that holds data is
  /// replaced only when `replacing` says so, and its files are first moved into `before-restore-…` in the
  /// profile folder, so nothing is lost either way. A running Hearth must be stopped first.
  /// - Throws: ``ProfileBackupError``; the profile is as it was when anything fails.
  public func restore(_ file: URL, passphrase: String?, replacing: Bool) throws(ProfileBackupError) -> RestoreReport {
    try Self.makeFolder(paths.home)
    let held: ProfileLock?
    do {
      held = try ProfileLock.exclusive(path: paths.generationLock)
    } catch {
      throw .files(path: paths.generationLock.path, detail: FileErrorText.describe(error))
    }
    guard let held else { throw .profileInUse(path: paths.home.path) }
    defer { withExtendedLifetime(held) {} }
    removeLeftovers()
    let holdsData = holdsData()
    if holdsData, !replacing { throw .profileNotEmpty(path: paths.home.path) }

    let staging = paths.home.appendingPathComponent(".restoring-\(UUID().uuidString)", isDirectory: true)
    defer { Self.remove(staging) }
    let (reader, manifest) = try Self.unpack(file, passphrase: passphrase, into: staging)
    // Migrated where it lies, so a backup of a newer Hearth is refused before anything moves; documents named
    // by their old folder's path are renamed to this one's.
    let restoresPasswords = manifest.includes.contains("passwords")
    let withoutPassword: [String]
    let pairing: (leftRevoked: [String], fromBackup: [String])
    do {
      let staged = try HearthDatabase(path: staging.appendingPathComponent("hearth.sqlite").path)
      if let source = manifest.sourceFolder {
        try staged.relocateDocuments(
          from: URL(fileURLWithPath: source).appendingPathComponent("documents").path,
          to: paths.home.standardizedFileURL.appendingPathComponent("documents").path)
      }
      // Found before anything moves, so a restore that went through is never reported as failed.
      let passwords = (restoresPasswords ? staging : paths.home).appendingPathComponent("accounts")
      withoutPassword = try staged.accounts().filter {
        !FileManager.default.fileExists(atPath: passwords.appendingPathComponent("\($0.id).password").path)
      }.map(\.name)
      pairing = try keepPairing(in: staged)
    } catch {
      throw .store(error)
    }
    let restoresModels = manifest.includes.contains("models")
    // The server's keys come back only from a backup that holds them; otherwise the profile's own stay.
    let keys = manifest.includes.contains("keys") ? ["tls", "push"] : []

    var moved: [(from: URL, to: URL)] = []
    var keptAside: URL?
    do {
      let keysHere = keys.contains {
        FileManager.default.fileExists(atPath: paths.home.appendingPathComponent($0).path)
      }
      if holdsData || keysHere || FileManager.default.fileExists(atPath: paths.database.path) {
        let aside = Self.freeAsideName(in: paths.home, for: now())
        try Self.makeFolder(aside)
        keptAside = aside
        var current = ["hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm", "documents", "state"]
        if restoresPasswords { current.append("accounts") }
        current += keys
        for name in current {
          let url = paths.home.appendingPathComponent(name)
          guard FileManager.default.fileExists(atPath: url.path) else { continue }
          try Self.move(url, to: aside.appendingPathComponent(name), noting: &moved)
        }
      }
      for name in ["hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm", "documents", "state", "accounts"] + keys {
        let staged = staging.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: staged.path) else { continue }
        try Self.move(staged, to: paths.home.appendingPathComponent(name), noting: &moved)
      }
      if restoresModels { try restoreModels(from: staging, keptAside: &keptAside, noting: &moved) }
    } catch {
      // Put back what was moved, newest first, so the profile is as it was.
      var notPutBack: [String] = []
      for (from, to) in moved.reversed() {
        do { try Self.relocate(to, to: from) } catch { notPutBack.append("\(from.path) (it is at \(to.path))") }
      }
      // The folder set aside goes only when all of it went back: never a file of the user's with it.
      if let keptAside, Self.regularFiles(under: keptAside, as: "").isEmpty { Self.remove(keptAside) }
      let cause = (error as? ProfileBackupError)?.description ?? FileErrorText.describe(error)
      guard notPutBack.isEmpty else {
        throw .files(
          path: paths.home.path,
          detail: "\(cause); these could not be put back and are where the message says: "
            + notPutBack.joined(separator: ", "))
      }
      if let error = error as? ProfileBackupError { throw error }
      throw .files(path: paths.home.path, detail: cause)
    }
    BackupWriter.synchronizeFolder(of: paths.database)
    return RestoreReport(
      backup: Self.summary(
        of: file, header: reader.header, manifest: manifest, encrypted: reader.header.sealing != nil),
      keptAside: keptAside?.path, accountsWithoutPassword: withoutPassword, devicesLeftRevoked: pairing.leftRevoked,
      devicesFromBackup: pairing.fromBackup)
  }

  /// Gives the staged database the profile's own pairing state when the profile has a sound database (read
  /// without writing to it), so a restore never lets a revoked device back in; otherwise the backup's stays, and
  /// its devices are named.
  private func keepPairing(
    in staged: HearthDatabase
  ) throws(StoreError) -> (
    leftRevoked: [String], fromBackup: [String]
  ) {
    guard let current = HearthDatabase.pairing(fileAt: paths.database.path) else {
      return ([], try staged.pairedDevices().map(\.name).sorted())
    }
    return (try staged.adoptPairing(current), [])
  }

  /// Whether the profile has a database or documents worth keeping.
  private func holdsData() -> Bool {
    let documents = paths.home.appendingPathComponent("documents")
    return FileManager.default.fileExists(atPath: paths.database.path)
      || !Self.regularFiles(under: documents, as: "documents").isEmpty
  }

  /// The backup's models go into the models folder; a file of the same name there is kept aside first.
  private func restoreModels(
    from staging: URL, keptAside: inout URL?, noting moved: inout [(from: URL, to: URL)]
  ) throws {
    let staged = staging.appendingPathComponent("models")
    for (file, path) in Self.regularFiles(under: staged, as: "") {
      let relative = String(path.dropFirst())
      let target = paths.models.appendingPathComponent(relative)
      if FileManager.default.fileExists(atPath: target.path) {
        let aside = keptAside ?? Self.freeAsideName(in: paths.home, for: now())
        keptAside = aside
        try Self.move(
          target, to: aside.appendingPathComponent("models").appendingPathComponent(relative), noting: &moved)
      }
      try Self.move(file, to: target, noting: &moved)
    }
  }

  private static func move(_ from: URL, to: URL, noting moved: inout [(from: URL, to: URL)]) throws {
    try FileManager.default.createDirectory(
      at: to.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try relocate(from, to: to)
    moved.append((from, to))
  }

  /// Moves a file by a rename; across disks (the models folder may be on another than the profile) it is copied
  /// beside its place, renamed in, and only then removed from where it was.
  private static func relocate(_ from: URL, to: URL) throws(ProfileBackupError) {
    guard rename(from.path, to.path) != 0 else { return }
    guard errno == EXDEV else { throw .files(path: to.path, detail: BackupWriter.lastSystemError()) }
    let beside = to.deletingLastPathComponent().appendingPathComponent(".\(to.lastPathComponent).restoring")
    do {
      try FileManager.default.copyItem(at: from, to: beside)
    } catch {
      Self.remove(beside)
      throw .files(path: to.path, detail: FileErrorText.describe(error))
    }
    // On disk before the original goes: a crash after the removal must not find the copy still in a cache.
    if let failure = synchronizeTree(at: beside) {
      Self.remove(beside)
      throw .files(path: to.path, detail: failure)
    }
    guard rename(beside.path, to.path) == 0 else {
      let detail = BackupWriter.lastSystemError()
      Self.remove(beside)
      throw .files(path: to.path, detail: detail)
    }
    BackupWriter.synchronizeFolder(of: to)
    // Both copies are whole and durable now; one left behind where it was is only space, never a loss.
    Self.remove(from)
  }

  /// Flushes a file, or every file and folder under a folder, to the disk; what went wrong, in words, or `nil`.
  private static func synchronizeTree(at url: URL) -> String? {
    var items = [url]
    if let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
      for case let item as URL in walker { items.append(item) }
    }
    for item in items {
      let descriptor = open(item.path, O_RDONLY)
      guard descriptor >= 0 else { return "\(item.path): \(BackupWriter.lastSystemError())" }
      defer { close(descriptor) }
      guard fsync(descriptor) == 0 else { return "\(item.path): \(BackupWriter.lastSystemError())" }
    }
    return nil
  }

  /// What a restore killed halfway left: its staging folder in the profile, and the copies it was making
  /// across disks (`.NAME.restoring`) beside the database and the models. Only the restore, which holds the
  /// profile alone, makes them, so any found now are from one that did not finish.
  private func removeLeftovers() {
    for folder in [paths.home, paths.models] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names where name.hasPrefix(".restoring-") || (name.hasPrefix(".") && name.hasSuffix(".restoring")) {
        Self.remove(folder.appendingPathComponent(name))
      }
    }
    let models = Self.regularFiles(under: paths.models, as: "").map(\.0)
    for file in models where file.lastPathComponent.hasPrefix(".") && file.lastPathComponent.hasSuffix(".restoring") {
      Self.remove(file)
    }
  }

  private static func freeAsideName(in home: URL, for date: Date) -> URL {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd-HHmmss"
    let stem = "before-restore-\(formatter.string(from: date))"
    var candidate = home.appendingPathComponent(stem, isDirectory: true)
    var number = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = home.appendingPathComponent("\(stem)-\(number)", isDirectory: true)
      number += 1
    }
    return candidate
  }
}
