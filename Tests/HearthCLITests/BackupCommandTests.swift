import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@Suite("hearth backup and hearth restore", .heavy)
struct BackupCommandTests {
  static let fixtures = TestModels.packageRoot.appendingPathComponent("Tests/HearthInterchangeTests/Fixtures")

  private func runner(home: URL) -> CommandRunner {
    CommandRunner(environment: [
      "HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2, "HEARTH_EMBEDDING_MODEL": TestModels.miniLM,
      "TZ": "Europe/Paris",
    ])
  }

  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @discardableResult
  private func ok(_ hearth: CommandRunner, _ arguments: [String]) async throws -> String {
    let result = try await hearth.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    return result.standardOutput
  }

  /// A profile with a chat, calendar, reminders, notes, a habit, a document in the memory and an account.
  private func seededProfile() async throws -> (URL, CommandRunner, Account) {
    let home = try TestModels.temporaryDirectory()
    let hearth = runner(home: home)
    try await ok(hearth, ["calendar", "import", Self.fixtures.appendingPathComponent("calendar-export.ics").path])
    try await ok(hearth, ["notes", "add", "Boiler", "--body", "The boiler code is 4471."])
    try await ok(hearth, ["habits", "add", "Run", "--schedule", "MO,WE,FR"])
    try await ok(hearth, ["ask", "Say hello.", "--temperature", "0", "--max-tokens", "8"])
    let documents = home.appendingPathComponent("documents")
    try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try Data("# Trip\nThe ferry to the island leaves at 7:40 from pier 3.\n".utf8)
      .write(to: documents.appendingPathComponent("trip.md"))
    try await ok(hearth, ["index", "add", documents.appendingPathComponent("trip.md").path])
    let account = Account(
      name: "Calendars", service: .caldav, url: URL(string: "https://dav.example.org/")!, username: "me")
    try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path).saveAccount(account)
    let accounts = home.appendingPathComponent("accounts")
    try FileManager.default.createDirectory(at: accounts, withIntermediateDirectories: true)
    try Data("app-password-1".utf8).write(to: accounts.appendingPathComponent("\(account.id).password"))
    // The server's keys, as `hearth serve --tls` and the first push leave them (owner-only files).
    for (folder, file) in [("tls", "authority-key.pem"), ("push", "vapid-key.pem")] {
      let keys = home.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
      let key = keys.appendingPathComponent(file)
      try Data("private \(folder) key".utf8).write(to: key)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    }
    return (home, hearth, account)
  }

  /// Every row of every table, with the profile's own folder written as `<home>`.
  private func rows(of home: URL) throws -> [String: [[String]]] {
    try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path).allRows().mapValues { rows in
      rows.map { $0.map { $0.replacingOccurrences(of: home.path, with: "<home>") } }
    }
  }

  @Test(arguments: [false, true])
  func aSeededProfileComesBackItemForItem(encrypted: Bool) async throws {
    let (home, hearth, account) = try await seededProfile()
    let folder = try TestModels.temporaryDirectory()
    let passphraseFile = folder.appendingPathComponent("passphrase")
    try Data("a long and private passphrase\n".utf8).write(to: passphraseFile)
    let sealing = encrypted ? ["--passphrase-file", passphraseFile.path, "--with-passwords"] : []
    let taken = try json(try await ok(hearth, ["backup", "--to", folder.path, "--json"] + sealing))
    let file = try #require(taken["file"] as? String)
    #expect(taken["encrypted"] as? Bool == encrypted)
    let items = try #require(taken["items"] as? [String: Int])
    #expect(items["chats"] == 1 && items["messages"] == 2 && items["notes"] == 1 && items["habits"] == 1)
    #expect((items["events"] ?? 0) >= 4 && items["accounts"] == 1)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(bytes.range(of: Data("4471".utf8)) == nil || !encrypted)
    #expect(bytes.range(of: Data("app-password-1".utf8)) == nil)

    let verified = try await hearth.run(
      ["backup", "verify", file] + (encrypted ? ["--passphrase-file", passphraseFile.path] : []))
    #expect(verified.status == 0, "\(verified.standardError)")
    #expect(verified.standardOutput.contains("is sound"))

    // Into a new profile elsewhere: the same rows, the document renamed to its new folder and found there.
    let elsewhere = try TestModels.temporaryDirectory().appendingPathComponent("restored")
    let restoring = runner(home: elsewhere)
    if encrypted {
      let wrong = folder.appendingPathComponent("wrong")
      try Data("not it".utf8).write(to: wrong)
      let refused = try await restoring.run(["restore", file, "--passphrase-file", wrong.path])
      #expect(refused.status == 1)
      #expect(refused.standardError.contains("the passphrase does not open"))
      #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("hearth.sqlite").path))
      let missing = try await restoring.run(["restore", file])
      #expect(missing.standardError.contains("is encrypted"))
    }
    let report = try json(
      try await ok(
        restoring, ["restore", file, "--json"] + (encrypted ? ["--passphrase-file", passphraseFile.path] : [])))
    #expect(report["kept_aside"] == nil)
    #expect(report["accounts_without_password"] as? [String] == (encrypted ? [] : ["Calendars"]))
    try expectSameRows(elsewhere, home)
    #expect(
      try Data(contentsOf: elsewhere.appendingPathComponent("documents/trip.md"))
        == Data(contentsOf: home.appendingPathComponent("documents/trip.md")))
    let password = elsewhere.appendingPathComponent("accounts/\(account.id).password")
    #expect(FileManager.default.fileExists(atPath: password.path) == encrypted)
    // With the passwords come the server's keys (phones keep trusting it, browsers keep their subscriptions),
    // readable by the user alone; a plain backup holds none of them.
    for key in ["tls/authority-key.pem", "push/vapid-key.pem"] {
      let restored = elsewhere.appendingPathComponent(key)
      #expect(FileManager.default.fileExists(atPath: restored.path) == encrypted, "\(key)")
      let folder = key.split(separator: "/")[0]
      #expect(bytes.range(of: Data("private \(folder) key".utf8)) == nil, "\(key) readable in the backup")
      guard encrypted else { continue }
      #expect(try Data(contentsOf: restored) == Data(contentsOf: home.appendingPathComponent(key)))
      let mode = try FileManager.default.attributesOfItem(atPath: restored.path)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(key): \(String(mode ?? 0, radix: 8))")
    }
    let listed = try await ok(restoring, ["index", "list", "--json"])
    #expect(listed.contains(elsewhere.appendingPathComponent("documents/trip.md").path))
    #expect(!listed.contains(home.path))
    let found = try await ok(restoring, ["recall", "ferry pier", "--mode", "keyword", "--json"])
    #expect(found.contains("7:40"))
    #expect(found.contains(elsewhere.appendingPathComponent("documents/trip.md").path))
    let notes = try await ok(restoring, ["notes", "list"])
    #expect(notes.contains("Boiler"))
  }

  @Test func restoringOverAProfileKeepsItAsideAndRefusesWhileHearthRuns() async throws {
    let (home, hearth, _) = try await seededProfile()
    let folder = try TestModels.temporaryDirectory()
    let file = try #require(
      try json(try await ok(hearth, ["backup", "--to", folder.path, "--json"]))["file"] as? String)
    let before = try rows(of: home)
    try await ok(hearth, ["notes", "add", "Written after the backup"])

    let plain = try await hearth.run(["restore", file])
    #expect(plain.status == 1)
    #expect(plain.standardError.contains("pass --replace"))

    // A turn streaming in another process holds the profile: the restore waits for nobody and changes nothing.
    let asking = Process()
    asking.executableURL = hearth.executable
    asking.arguments = ["ask", "Write a long story about a lighthouse.", "--max-tokens", "2000", "--temperature", "0"]
    asking.environment = hearth.processEnvironment
    asking.standardOutput = FileHandle.nullDevice
    asking.standardError = FileHandle.nullDevice
    try asking.run()
    defer { if asking.isRunning { kill(asking.processIdentifier, SIGKILL) } }
    try await waitUntilGenerating(in: home, while: asking)
    let busy = try await hearth.run(["restore", file, "--replace"])
    #expect(busy.status == 1)
    #expect(busy.standardError.contains("a running Hearth"))
    kill(asking.processIdentifier, SIGKILL)
    asking.waitUntilExit()
    #expect(try await ok(hearth, ["notes", "list"]).contains("Written after the backup"))

    let report = try json(try await ok(hearth, ["restore", file, "--replace", "--json"]))
    let aside = URL(fileURLWithPath: try #require(report["kept_aside"] as? String))
    #expect(aside.lastPathComponent.hasPrefix("before-restore-"))
    #expect(try rows(of: home) == before)
    #expect(!(try await ok(hearth, ["notes", "list"])).contains("Written after the backup"))
    // A backup without the server's keys leaves the profile's own where they are: phones still trust it.
    #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("tls/authority-key.pem").path))
    #expect(!FileManager.default.fileExists(atPath: aside.appendingPathComponent("tls").path))
    // What was replaced is all there, by a rename, and opens as it was.
    let kept = try HearthDatabase(path: aside.appendingPathComponent("hearth.sqlite").path)
    #expect(try kept.integrityCheck() == ["ok"])
    #expect(try kept.rowCounts()["note"] == 2)
    #expect(FileManager.default.fileExists(atPath: aside.appendingPathComponent("documents/trip.md").path))
  }

  @Test func aBackupTakenWhileATurnStreamsHoldsEveryCommittedMessage() async throws {
    let (home, hearth, _) = try await seededProfile()
    let asking = Process()
    asking.executableURL = hearth.executable
    asking.arguments = [
      "ask", "Count from 1 to 1000, one number per line.", "--max-tokens", "2000", "--temperature", "0",
    ]
    asking.environment = hearth.processEnvironment
    asking.standardOutput = FileHandle.nullDevice
    asking.standardError = FileHandle.nullDevice
    try asking.run()
    defer { if asking.isRunning { kill(asking.processIdentifier, SIGKILL) } }
    try await waitUntilGenerating(in: home, while: asking)
    let folder = try TestModels.temporaryDirectory()
    let file = try #require(
      try json(try await ok(hearth, ["backup", "--to", folder.path, "--json"]))["file"] as? String)
    let stillStreaming = asking.isRunning
    kill(asking.processIdentifier, SIGKILL)
    asking.waitUntilExit()
    #expect(stillStreaming, "the answer ended before the backup did; make it longer")

    let elsewhere = try TestModels.temporaryDirectory().appendingPathComponent("restored")
    try await ok(runner(home: elsewhere), ["restore", file])
    let restored = try HearthDatabase(path: elsewhere.appendingPathComponent("hearth.sqlite").path)
    #expect(try restored.integrityCheck() == ["ok"])
    let original = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    // Every message complete before the backup is there as it was; the one streaming is there as far as it had
    // come, marked as still being written (the next start marks it interrupted).
    for session in try original.sessions() {
      let kept = try restored.messages(in: session.id)
      for message in try original.messages(in: session.id) where message.state == .complete {
        #expect(kept.contains(message))
      }
    }
    let streaming = try restored.sessions().flatMap { try restored.messages(in: $0.id) }.filter {
      $0.state == .generating
    }
    #expect(streaming.count == 1)
    #expect(!(streaming.first?.content.isEmpty ?? true))
  }

  @Test func aDamagedDatabaseIsNeverWrittenToAndTheNewestBackupIsNamed() async throws {
    let (home, hearth, _) = try await seededProfile()
    let taken = try json(try await ok(hearth, ["backup", "--json"]))
    let file = try #require(taken["file"] as? String)
    let database = home.appendingPathComponent("hearth.sqlite")
    // The notes table's first page overwritten, as a bad sector would.
    let root = try await CommandRunner.runProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select rootpage from sqlite_master "
          + "where name='note'\").fetchone()[0], c.execute('pragma page_size').fetchone()[0])",
        database.path,
      ])
    let numbers = root.standardOutput.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    try #require(numbers.count == 2, "\(root)")
    let handle = try FileHandle(forWritingTo: database)
    try handle.seek(toOffset: UInt64((numbers[0] - 1) * numbers[1]))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: numbers[1]))
    try handle.close()
    let damaged = try Data(contentsOf: database)

    let refused = try await hearth.run(["ask", "Hello", "--max-tokens", "4"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("is damaged"), "\(refused.standardError)")
    #expect(refused.standardError.contains("Hearth has not written to it"))
    #expect(refused.standardError.contains("hearth restore --replace \(file)"))
    #expect(try Data(contentsOf: database) == damaged)
    // Commands that edit the data without a model refuse the same way.
    for command in [["notes", "add", "Ferry", "--body", "Leaves at 7:40"], ["calendar", "list"]] {
      let edit = try await hearth.run(command)
      #expect(edit.status == 1, "\(command)")
      #expect(edit.standardError.contains("is damaged"), "\(command): \(edit.standardError)")
    }
    #expect(try Data(contentsOf: database) == damaged)
    let doctor = try await hearth.run(["doctor"])
    #expect(doctor.standardOutput.contains("DAMAGED") || doctor.standardError.contains("damaged"), "\(doctor)")
    // No backup is taken of a damaged copy, so the sound one stays the newest.
    let backupOfDamage = try await hearth.run(["backup"])
    #expect(backupOfDamage.status == 1)
    #expect(backupOfDamage.standardError.contains("no backup was taken"), "\(backupOfDamage.standardError)")
    #expect(try Data(contentsOf: database) == damaged)
    let listed = try await ok(hearth, ["backup", "list", "--json"])
    #expect(listed.components(separatedBy: ".hearthbackup").count == 2, "\(listed)")

    let restored = try json(try await ok(hearth, ["restore", file, "--replace", "--json"]))
    let aside = URL(fileURLWithPath: try #require(restored["kept_aside"] as? String))
    #expect(try Data(contentsOf: aside.appendingPathComponent("hearth.sqlite")) == damaged)
    try await ok(hearth, ["ask", "Hello", "--max-tokens", "4"])
    #expect(try await ok(hearth, ["notes", "list"]).contains("Boiler"))
    #expect(try await ok(hearth, ["doctor"]).contains("database                ok"))
  }

  @Test func passwordsAreNeverWrittenUnencrypted() async throws {
    let (_, hearth, _) = try await seededProfile()
    let folder = try TestModels.temporaryDirectory()
    let refused = try await hearth.run(["backup", "--to", folder.path, "--with-passwords"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("--with-passwords needs --passphrase-file"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
  func aFullDiskFailsTheBackupWholeAndTheNextOneWorksOnceThereIsSpace() async throws {
    let (home, hearth, _) = try await seededProfile()
    var generator = SystemRandomNumberGenerator()
    let scan = home.appendingPathComponent("documents/scan.bin")
    try Data((0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: scan)
    let disk = try SmallFileSystem(megabytes: 2)
    let small = disk.folder

    let full = try await hearth.run(["backup", "--to", small.path])
    #expect(full.status == 1)
    #expect(full.standardError.contains("No space left on device"), "\(full.standardError)")
    #expect(full.standardError.contains("nothing was left half-written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: small.path).isEmpty)

    try FileManager.default.removeItem(at: scan)
    let file = try #require(
      try json(try await ok(hearth, ["backup", "--to", small.path, "--json"]))["file"] as? String)
    try await ok(hearth, ["backup", "verify", file])
  }

  /// Every table's rows equal, named table by table when not. The keyword index's own tables are left out: the
  /// document's pieces are written again under their new folder, which lays the same words out anew.
  private func expectSameRows(_ restored: URL, _ original: URL) throws {
    let (after, before) = (try rows(of: restored), try rows(of: original))
    #expect(Set(after.keys) == Set(before.keys))
    for (table, rows) in before.sorted(by: { $0.key < $1.key }) where !table.contains("_fts_") && after[table] != rows {
      Issue.record("\(table) differs: \(rows.prefix(3)) before, \(after[table]?.prefix(3) ?? []) after")
    }
  }

  private func waitUntilGenerating(in home: URL, while process: Process) async throws {
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    for _ in 0..<3_000 where process.isRunning {
      let generating = try database.sessions().flatMap { try database.messages(in: $0.id) }
        .contains { $0.state == .generating && !$0.content.isEmpty }
      if generating { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("no answer text appeared within a minute")
  }
}
