import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// `hearth accounts` and `hearth sync` as a user runs them, against a real Radicale server, and a sync killed
/// halfway that the next one finishes.
@Suite("hearth accounts and hearth sync against a real server", .heavy, .enabled(if: DAVServer.isInstalled))
struct SyncCommandTests {
  @Test func aSyncKilledHalfwayIsFinishedByTheNextWithNothingDoubledOrLost() async throws {
    let server = try DAVServer(.radicale)
    try server.phone("make-calendar", "family", "Family")
    try server.phone("save-many", "family", "150", "phone")
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "TZ": "UTC"])
    let password = home.appendingPathComponent("password")
    try "\(server.password)\n".write(to: password, atomically: true, encoding: .utf8)
    let added = try await hearth.run([
      "accounts", "add", "caldav", server.base, "--user", server.user, "--password-file", password.path,
      "--name", "home",
    ])
    #expect(added.status == 0, "\(added)")
    #expect(added.standardOutput.contains("added home"))
    // 150 events of Hearth's own in the same calendar, to go up while the phone's 150 come down.
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN"]
    for index in 0..<150 {
      let day = LocalDate(year: 2028, month: 1, day: 1)!.adding(days: index)
      let compact = day.description.replacingOccurrences(of: "-", with: "")
      lines += [
        "BEGIN:VEVENT", "UID:local-\(index)", "DTSTAMP:20261201T000000Z", "DTSTART:\(compact)T090000Z",
        "DTEND:\(compact)T100000Z", "SUMMARY:local \(index)", "X-HEARTH-CALENDAR:Family", "END:VEVENT",
      ]
    }
    let file = home.appendingPathComponent("local.ics")
    try (lines + ["END:VCALENDAR"]).joined(separator: "\r\n").write(to: file, atomically: true, encoding: .utf8)
    let imported = try await hearth.run(["calendar", "import", file.path])
    #expect(imported.status == 0, "\(imported)")

    // Killed once some items are linked and before all of them are.
    let process = Process()
    process.executableURL = hearth.executable
    process.arguments = ["sync"]
    process.environment = hearth.processEnvironment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let database = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    var linked = 0
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning, Date() < deadline {
      linked = try Self.linkCount(database)
      if linked >= 20 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let atKill = try Self.linkCount(database)
    #expect(atKill > 0 && atKill < 300, "killed with \(atKill) of 300 linked")

    let finished = try await hearth.run(["sync"])
    #expect(finished.status == 0, "\(finished)")
    let events = try database.events()
    #expect(events.count == 300)
    #expect(Set(events.map(\.id)).count == 300)
    #expect(try Self.linkCount(database) == 300)
    let onServer = try server.phone("list", "family").split(separator: "\n")
    #expect(onServer.count == 300, "the server holds \(onServer.count)")
    #expect(Set(onServer).count == 300)

    // And then nothing more to do.
    let idle = try await hearth.run(["sync"])
    #expect(idle.standardOutput.contains("Family: in step"), "\(idle.standardOutput)")
    let status = try await hearth.run(["accounts", "status"])
    #expect(status.standardOutput.contains("home: last sync"), "\(status.standardOutput)")
    #expect(status.standardOutput.contains("in step"))
    // No `hearth serve` runs on this profile: nothing will sync until one does, and the status says so.
    #expect(status.standardOutput.contains("no sync scheduled"), "\(status.standardOutput)")
    let doctor = try await hearth.run(["doctor", "--json"])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(doctor.standardOutput.utf8)) as? [String: Any])
    let account = try #require((report["accounts"] as? [[String: Any]])?.first, "\(doctor)")
    #expect(account["schedule"] as? String == "not scheduled")
    #expect(account["last_sync"] != nil)
  }

  @Test func aWrongPasswordIsRefusedAtAddWithTheAccountsName() async throws {
    let server = try DAVServer(.radicale)
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_ACCOUNT_PASSWORD": "nope"])
    let result = try await hearth.run([
      "accounts", "add", "caldav", server.base, "--user", server.user, "--name", "fastmail",
    ])
    #expect(result.status == 1)
    #expect(result.standardError.contains("account fastmail"), "\(result.standardError)")
    #expect(result.standardError.contains("refused the user name or password"))
    #expect(!result.standardError.contains("nope"))
    let listed = try await hearth.run(["accounts", "list"])
    #expect(listed.standardError.contains("no accounts"))
  }

  @Test func plainHTTPToAnotherMachineNeedsTheFlagThatNamesTheRisk() async throws {
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_ACCOUNT_PASSWORD": "pw"])
    let result = try await hearth.run(["accounts", "add", "caldav", "http://dav.example.com/", "--user", "u"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("--allow-plain-http"), "\(result.standardError)")
  }

  @Test func theSyncBenchmarkRunsBothToolsOnTheSameServer() async throws {
    let result = try await CommandRunner().run(["bench", "sync", "--events", "12", "--json"], timeout: .seconds(240))
    #expect(result.status == 0, "\(result)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    #expect(rows.count == 4)
    for row in rows {
      #expect((row["hearth_seconds"] as? Double ?? 0) > 0, "\(row)")
      #expect((row["vdirsyncer_seconds"] as? Double ?? 0) > 0, "\(row)")
    }
  }

  static func linkCount(_ database: HearthDatabase) throws -> Int {
    try database.accounts().flatMap { try database.syncCollections(of: $0.id) }
      .map { try database.syncedItems(in: $0.id).count }.reduce(0, +)
  }
}
