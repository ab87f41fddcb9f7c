public import Foundation
import HearthBackup
import HearthStore

/// What a backup holds beyond the profile's data (the database, with every setting, prompt, MCP server and
/// account, and the documents added to the memory, always).
public struct BackupOptions: Sendable, Hashable {
  /// The folder the backup file goes into (created 0700 when missing).
  public var folder: URL
  /// Seals the backup; `nil` writes it compressed but readable by anyone who has the file.
  public var passphrase: String?
  /// The accounts' app passwords and the server's private keys — the HTTPS authority's and server's, and the key
  /// notifications are pushed with — (only into an encrypted backup). Restored, phones keep trusting the server
  /// and browsers keep their subscriptions.
  public var includesPasswords = false
  /// The chats' evaluated model states (large; they are rebuilt when missing).
  public var includesConversationStates = false
  /// The installed models (large; they can be downloaded again).
  public var includesModels = false

  public init(folder: URL, passphrase: String? = nil) {
    (self.folder, self.passphrase) = (folder, passphrase)
  }
}

/// A backup as written, checked or found in a folder.
public struct BackupSummary: Sendable, Codable, Hashable {
  /// The backup file.
  public var file: String
  /// When it was taken.
  public var created: Date
  /// Whether it needs a passphrase.
  public var encrypted: Bool
  /// The backup file's size.
  public var bytes: UInt64
  /// Files inside it and their size before compression; `nil` when only the header was read.
  public var files: Int?
  public var dataBytes: UInt64?
  /// What it holds beyond the data: `passwords`, `keys`, `conversation states`, `models`.
  public var includes: [String]?
  /// The user's items in it, by kind (`chats`, `messages`, `events`, …).
  public var items: [String: Int]?
}

/// Backs the profile up, checks backups and restores them (``restore(_:passphrase:replacing:)``). Works beside
/// a running `hearth serve`: the database is copied with SQLite's online backup, one consistent moment of it.
public struct ProfileBackup: Sendable {
  /// The profile.
  public let paths: HearthPaths
  let now: @Sendable () -> Date

  public init(paths: HearthPaths, now: @escaping @Sendable () -> Date = { Date() }) {
    (self.paths, self.now) = (paths, now)
  }

  /// Where backups go unless told otherwise: `backups` in the profile folder.
  public static func defaultFolder(of paths: HearthPaths) -> URL {
    paths.home.appendingPathComponent("backups", isDirectory: true)
  }

  /// The file name extension of Hearth's backups.
  public static let fileExtension = "hearthbackup"

  /// Takes a backup into `options.folder`, its file named `prefix` and the local time
  /// (`hearth-2026-12-04-091500.hearthbackup`).
  /// - Throws: ``ProfileBackupError``; a failed backup leaves no file behind.
  public func create(
    _ options: BackupOptions, named prefix: String = "hearth-"
  ) throws(ProfileBackupError) -> BackupSummary {
    if options.includesPasswords, options.passphrase == nil { throw .passwordsNeedPassphrase }
    guard FileManager.default.fileExists(atPath: paths.database.path) else {
      throw .noProfile(path: paths.home.path)
    }
    let database: HearthDatabase
    do {
      // Read-only first: a damaged database is never opened for writing, not even by a backup.
      let found = try HearthDatabase.quickCheck(fileAt: paths.database.path)
      guard found == ["ok"] else { throw ProfileBackupError.unsoundProfile(path: paths.database.path, found: found) }
      database = try HearthDatabase(path: paths.database.path)
    } catch let error as ProfileBackupError {
      throw error
    } catch let error as StoreError {
      if case .corrupt(_, let detail) = error { throw .unsoundProfile(path: paths.database.path, found: [detail]) }
      throw .store(error)
    } catch {
      throw .files(path: paths.database.path, detail: FileErrorText.describe(error))
    }
    try Self.makeFolder(options.folder)
    let cutoff = now().addingTimeInterval(-6 * 3_600)
    Self.removeLeftovers(in: options.folder, before: cutoff)
    Self.removeLeftovers(in: paths.home, before: cutoff)
    // The plain copy of the database stays inside the profile: the destination may be a shared or synced
    // folder, and an encrypted backup must never leave a readable copy there, even for a moment.
    let staging = paths.home.appendingPathComponent(".taking-\(UUID().uuidString)", isDirectory: true)
    try Self.makeFolder(staging)
    defer { Self.remove(staging) }
    let copy = staging.appendingPathComponent("hearth.sqlite")
    let tables: [String: Int]
    do {
      tables = try database.snapshot(to: copy.path)
      // A damaged database makes a damaged backup, and rotation would then drop the sound ones it replaces.
      let found = try HearthDatabase.quickCheck(fileAt: copy.path)
      guard found == ["ok"] else { throw ProfileBackupError.unsoundProfile(path: paths.database.path, found: found) }
    } catch let error as ProfileBackupError {
      throw error
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .files(path: copy.path, detail: FileErrorText.describe(error))
    }
    let taken = now()
    let destination = Self.freeName(in: options.folder, prefix: prefix, for: taken)
    do {
      let writer = try BackupWriter(creating: destination, passphrase: options.passphrase, created: taken)
      try writer.add(fileAt: copy, as: "hearth.sqlite")
      Self.remove(copy)
      for (file, path) in try files(for: options) { try writer.add(fileAt: file, as: path) }
      let manifest = try writer.finish(
        tables: tables, includes: Self.includes(options), sourceFolder: paths.home.standardizedFileURL.path)
      return Self.summary(of: destination, header: nil, manifest: manifest, encrypted: options.passphrase != nil)
    } catch let error as BackupError {
      throw .backup(error)
    } catch let error as ProfileBackupError {
      throw error
    } catch {
      throw .files(path: destination.path, detail: FileErrorText.describe(error))
    }
  }

  /// Reads the backup at `file` through, checking every file against its checksum and the database inside with
  /// SQLite's full check and against the rows it lists; nothing is restored.
  public func verify(_ file: URL, passphrase: String?) throws(ProfileBackupError) -> BackupSummary {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hearth-verify-\(UUID().uuidString)", isDirectory: true)
    defer { Self.remove(scratch) }
    // Only the database is written out (to be checked by SQLite); every other file is checked as it is read.
    let (reader, manifest) = try Self.unpack(
      file, passphrase: passphrase, into: scratch, extracting: { $0 == "hearth.sqlite" })
    return Self.summary(of: file, header: reader.header, manifest: manifest, encrypted: reader.header.sealing != nil)
  }

  /// The backups in `folder`, newest first, from their headers (no passphrase needed); files that are not
  /// backups are passed over.
  public func list(in folder: URL) -> [BackupSummary] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".\(Self.fileExtension)") }.compactMap { name in
      let url = folder.appendingPathComponent(name)
      guard let header = try? BackupReader.header(of: url) else { return nil }
      return Self.summary(of: url, header: header, manifest: nil, encrypted: header.sealing != nil)
    }.sorted { $0.created > $1.created }
  }

  /// Reads the backup into `folder` and checks the database in it.
  static func unpack(
    _ file: URL, passphrase: String?, into folder: URL, extracting: (String) -> Bool = { _ in true }
  ) throws(ProfileBackupError) -> (BackupReader, BackupManifest) {
    let reader: BackupReader
    let manifest: BackupManifest
    do {
      reader = try BackupReader(opening: file, passphrase: passphrase)
      manifest = try reader.read(into: folder, extracting: extracting)
    } catch {
      throw .backup(error)
    }
    let database = folder.appendingPathComponent("hearth.sqlite")
    guard manifest.entries.contains(where: { $0.path == "hearth.sqlite" }) else {
      throw .backup(.damaged(path: file.path, detail: "it holds no database"))
    }
    let inspection: (integrity: [String], rowCounts: [String: Int])
    do {
      inspection = try HearthDatabase.inspectCopy(at: database.path)
    } catch {
      throw .unsoundDatabase(backup: file.path, found: [error.description])
    }
    guard inspection.integrity == ["ok"] else { throw .unsoundDatabase(backup: file.path, found: inspection.integrity) }
    for (table, expected) in manifest.tables.sorted(by: { $0.key < $1.key }) {
      let found = inspection.rowCounts[table] ?? 0
      guard found == expected else {
        throw .contentsDiffer(backup: file.path, table: table, expected: expected, found: found)
      }
    }
    return (reader, manifest)
  }

  /// The files besides the database, by their path in the backup.
  private func files(for options: BackupOptions) throws -> [(URL, String)] {
    var files = Self.regularFiles(under: paths.home.appendingPathComponent("documents"), as: "documents")
    if options.includesPasswords {
      files += Self.regularFiles(under: paths.home.appendingPathComponent("accounts"), as: "accounts")
      files += Self.regularFiles(under: paths.tls, as: "tls") + Self.regularFiles(under: paths.push, as: "push")
    }
    if options.includesConversationStates {
      files += Self.regularFiles(under: paths.conversationStates, as: "state")
    }
    if options.includesModels {
      files += Self.regularFiles(under: paths.models, as: "models").filter { _, path in
        !path.hasPrefix("models/.") && !path.hasSuffix(".lock") && !path.hasSuffix(".part")
      }
    }
    return files
  }

  static func regularFiles(under folder: URL, as prefix: String) -> [(URL, String)] {
    guard
      let walker = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey])
    else { return [] }
    var found: [(URL, String)] = []
    let base = folder.standardizedFileURL.path
    for case let url as URL in walker {
      let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
      guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(base + "/") else { continue }
      found.append((url, prefix + "/" + path.dropFirst(base.count + 1)))
    }
    return found.sorted { $0.1 < $1.1 }
  }

  static func includes(_ options: BackupOptions) -> [String] {
    [
      options.includesPasswords ? "passwords" : nil, options.includesPasswords ? "keys" : nil,
      options.includesConversationStates ? "conversation states" : nil,
      options.includesModels ? "models" : nil,
    ].compactMap { $0 }
  }

  /// `hearth-2026-12-04-091500.hearthbackup` in local time, with `-2`, `-3` … when taken within one second.
  static func freeName(in folder: URL, prefix: String, for date: Date) -> URL {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd-HHmmss"
    let stem = "\(prefix)\(formatter.string(from: date))"
    var candidate = folder.appendingPathComponent("\(stem).\(fileExtension)")
    var number = 2
    while FileManager.default.fileExists(atPath: candidate.path)
      || FileManager.default.fileExists(atPath: candidate.path + ".partial")
    {
      candidate = folder.appendingPathComponent("\(stem)-\(number).\(fileExtension)")
      number += 1
    }
    return candidate
  }

  static func summary(
    of file: URL, header: BackupHeader?, manifest: BackupManifest?, encrypted: Bool
  ) -> BackupSummary {
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64) ?? nil
    return BackupSummary(
      file: file.path, created: manifest?.created ?? header?.created ?? Date(timeIntervalSince1970: 0),
      encrypted: encrypted, bytes: size ?? 0, files: manifest?.entries.count, dataBytes: manifest?.totalSize,
      includes: manifest?.includes, items: manifest.map { items(in: $0.tables) })
  }

  /// The user's items by kind, from the rows per table.
  static func items(in tables: [String: Int]) -> [String: Int] {
    let kinds = [
      "session": "chats", "message": "messages", "calendarEvent": "events", "reminder": "reminders",
      "note": "notes", "habit": "habits", "contact": "contacts", "fact": "facts", "memorySource": "memory_sources",
      "account": "accounts",
    ]
    return Dictionary(uniqueKeysWithValues: kinds.compactMap { table, kind in tables[table].map { (kind, $0) } })
  }

  /// What a backup cut short by a crash or a kill left: its scratch folder and its `.partial` file. Only old
  /// ones, so a backup another process is taking right now keeps its own.
  static func removeLeftovers(in folder: URL, before cutoff: Date) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(".taking-") || name.hasSuffix(".\(fileExtension).partial") {
      let url = folder.appendingPathComponent(name)
      let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
      if let modified, modified < cutoff { remove(url) }
    }
  }

  static func makeFolder(_ folder: URL) throws(ProfileBackupError) {
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .files(path: folder.path, detail: FileErrorText.describe(error))
    }
  }

  static func remove(_ url: URL) {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      // A scratch folder left behind is named in the next listing of the folder, never read as a backup.
    }
  }
}

extension ProfileBackup {
  /// A backup's passphrase, from the first line of the file at `path` (so it never shows in a process list).
  public static func passphrase(fromFile path: String) throws(ProfileBackupError) -> String {
    let text: String
    do {
      text = try String(contentsOfFile: (path as NSString).expandingTildeInPath, encoding: .utf8)
    } catch {
      throw .files(path: path, detail: FileErrorText.describe(error))
    }
    let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let passphrase = String(line.hasSuffix("\r") ? line.dropLast() : line)
    guard !passphrase.isEmpty else { throw .backup(.unusablePassphrase("the first line of \(path) is empty")) }
    return passphrase
  }
}
