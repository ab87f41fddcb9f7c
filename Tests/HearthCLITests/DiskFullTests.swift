import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@Suite(
  "A full disk under the profile", .heavy,
  .enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
struct DiskFullTests {
  @Test func aTurnAndAnImportStopWithTheCauseAndWorkOnceThereIsSpace() async throws {
    let disk = try SmallFileSystem(megabytes: 6)
    let home = disk.folder.appendingPathComponent("profile")
    let hearth = CommandRunner(environment: [
      "HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2, "HEARTH_EMBEDDING_MODEL": TestModels.miniLM,
    ])
    let first = try await hearth.run(["ask", "Say hello.", "--temperature", "0", "--max-tokens", "8"])
    #expect(first.status == 0, "\(first.standardError)")
    let database = home.appendingPathComponent("hearth.sqlite").path
    let before = try HearthDatabase(path: database).rowCounts()
    let note = try TestModels.temporaryDirectory()
    try Data(String(repeating: "# Trip\n\nThe ferry leaves at 7:40 from pier 3.\n\n", count: 200).utf8).write(
      to: note.appendingPathComponent("trip.md"))

    let filler = try disk.fill()
    let turn = try await hearth.run(["ask", "Say hello again.", "--temperature", "0", "--max-tokens", "8"])
    #expect(turn.status == 1)
    #expect(turn.standardError.contains("is full"), "\(turn.standardError)")
    #expect(!turn.standardError.contains("Fatal error"))
    let imported = try await hearth.run(["notes", "import", note.path])
    #expect(imported.status == 1)
    #expect(imported.standardError.contains("is full"), "\(imported.standardError)")

    // Nothing half-written: the database is sound and holds what it held.
    try FileManager.default.removeItem(at: filler)
    let after = try HearthDatabase(path: database)
    #expect(try after.integrityCheck() == ["ok"])
    #expect(try after.rowCounts()["message"] == before["message"])
    #expect(try after.rowCounts()["note"] == before["note"])

    let again = try await hearth.run(["ask", "Say hello again.", "--temperature", "0", "--max-tokens", "8"])
    #expect(again.status == 0, "\(again.standardError)")
    let importedAgain = try await hearth.run(["notes", "import", note.path])
    #expect(importedAgain.status == 0, "\(importedAgain.standardError)")
    #expect(try HearthDatabase(path: database).rowCounts()["note"] == (before["note"] ?? 0) + 1)
  }

  @Test func aDiskThatFillsWhileAnAnswerStreamsStopsTheTurnWithTheCauseAndKeepsTheAnswerSoFar() async throws {
    let disk = try SmallFileSystem(megabytes: 8)
    let home = disk.folder.appendingPathComponent("profile")
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2])
    let first = try await hearth.run(["ask", "Say hello.", "--temperature", "0", "--max-tokens", "8"])
    #expect(first.status == 0, "\(first.standardError)")
    let outputs = try TestModels.temporaryDirectory()
    let printed = outputs.appendingPathComponent("out.txt")
    let errors = outputs.appendingPathComponent("err.txt")
    for file in [printed, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let asking = Process()
    asking.executableURL = hearth.executable
    asking.arguments = [
      "ask", "Count from 1 to 1000, one number per line.", "--max-tokens", "3000", "--temperature", "0",
    ]
    asking.environment = hearth.processEnvironment
    asking.standardOutput = try FileHandle(forWritingTo: printed)
    asking.standardError = try FileHandle(forWritingTo: errors)
    try asking.run()
    defer { if asking.isRunning { kill(asking.processIdentifier, SIGKILL) } }
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    var streaming = false
    for _ in 0..<3_000 where asking.isRunning && !streaming {
      streaming = try database.sessions().flatMap { try database.messages(in: $0.id) }.contains {
        $0.state == .generating && $0.content.count > 20
      }
      if !streaming { try await Task.sleep(for: .milliseconds(20)) }
    }
    try #require(streaming, "no answer streamed")

    let filler = try disk.fill()
    for _ in 0..<6_000 where asking.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    try #require(!asking.isRunning, "the turn went on for two minutes on a full disk")
    asking.waitUntilExit()
    let said = try String(contentsOf: errors, encoding: .utf8)
    #expect(asking.terminationStatus == 1, "\(said)")
    #expect(said.contains("is full"), "\(said)")
    #expect(!said.contains("Fatal error"))
    // The answer so far was shown, and what was saved of it before the disk filled is still there.
    try FileManager.default.removeItem(at: filler)
    #expect(try database.integrityCheck() == ["ok"])
    let kept = try database.sessions().flatMap { try database.messages(in: $0.id) }.filter {
      $0.role == .assistant && $0.content.hasPrefix("1")
    }
    #expect(kept.count == 1 && kept[0].content.count > 20, "\(kept.map(\.content.count))")
    let shown = try String(contentsOf: printed, encoding: .utf8)
    #expect(shown.contains(kept.first?.content.prefix(20) ?? "-"), "shown: \(shown.prefix(300))")

    let again = try await hearth.run(["ask", "Say hello again.", "--temperature", "0", "--max-tokens", "8"])
    #expect(again.status == 0, "\(again.standardError)")
  }

  @Test(.enabled(if: DAVServer.isInstalled, "Radicale is set up by scripts/setup-dav.sh"))
  func aSyncOnAFullDiskStopsWithTheCauseAndTheNextOneBringsEverythingOnce() async throws {
    let server = try DAVServer(.radicale)
    try server.phone("make-calendar", "family", "Family")
    try server.phone("save-many", "family", "150", "phone")
    let disk = try SmallFileSystem(megabytes: 6)
    let home = disk.folder.appendingPathComponent("profile")
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "TZ": "UTC"])
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let password = home.appendingPathComponent("password")
    try "\(server.password)\n".write(to: password, atomically: true, encoding: .utf8)
    let added = try await hearth.run([
      "accounts", "add", "caldav", server.base, "--user", server.user, "--password-file", password.path,
      "--name", "home",
    ])
    #expect(added.status == 0, "\(added)")

    let filler = try disk.fill()
    let full = try await hearth.run(["sync"])
    #expect(full.status == 1, "\(full)")
    #expect((full.standardOutput + full.standardError).contains("is full"), "\(full)")
    #expect(!full.standardError.contains("Fatal error"))

    try FileManager.default.removeItem(at: filler)
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    #expect(try database.integrityCheck() == ["ok"])
    let synced = try await hearth.run(["sync"])
    #expect(synced.status == 0, "\(synced)")
    let events = try database.events()
    #expect(events.count == 150)
    #expect(Set(events.map(\.title)).count == 150)
    #expect(try server.phone("list", "family").split(separator: "\n").count == 150)
  }

  @Test func aReadOnlyDiskStopsATurnAnImportAndABackupWithTheCauseAndChangesNothing() async throws {
    let disk = try SmallFileSystem(megabytes: 8)
    let home = disk.folder.appendingPathComponent("profile")
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2])
    let first = try await hearth.run(["ask", "Say hello.", "--temperature", "0", "--max-tokens", "8"])
    #expect(first.status == 0, "\(first.standardError)")
    let database = home.appendingPathComponent("hearth.sqlite")
    let before = try HearthDatabase(path: database.path).rowCounts()
    let note = try TestModels.temporaryDirectory()
    try Data("# Trip\n\nThe ferry leaves at 7:40 from pier 3.\n".utf8).write(to: note.appendingPathComponent("trip.md"))
    let backups = disk.folder.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)

    try disk.setReadOnly(true)
    let stored = try Data(contentsOf: database)
    for command in [
      ["ask", "Say hello again.", "--temperature", "0", "--max-tokens", "8"], ["notes", "import", note.path],
      ["backup", "--to", backups.path],
    ] {
      let refused = try await hearth.run(command)
      #expect(refused.status == 1, "\(command): \(refused)")
      #expect(refused.standardError.lowercased().contains("read-only"), "\(command): \(refused.standardError)")
      #expect(!refused.standardError.contains("Fatal error"))
    }
    #expect(try Data(contentsOf: database) == stored)

    try disk.setReadOnly(false)
    let after = try HearthDatabase(path: database.path)
    #expect(try after.integrityCheck() == ["ok"])
    #expect(try after.rowCounts()["message"] == before["message"])
    let again = try await hearth.run(["ask", "Say hello again.", "--temperature", "0", "--max-tokens", "8"])
    #expect(again.status == 0, "\(again.standardError)")
    let imported = try await hearth.run(["notes", "import", note.path])
    #expect(imported.status == 0, "\(imported.standardError)")
    let backedUp = try await hearth.run(["backup", "--to", backups.path])
    #expect(backedUp.status == 0, "\(backedUp.standardError)")
  }
}
