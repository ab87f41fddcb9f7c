import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// Paired devices are credentials of the server, not data of the user: a restore must not let back in a device that
/// was revoked after the backup was made.
@Suite("hearth restore and paired devices", .heavy)
struct RestorePairingTests {
  private func runner(home: URL) -> CommandRunner {
    CommandRunner(environment: ["HEARTH_HOME": home.path, "TZ": "Europe/Paris"])
  }

  @discardableResult
  private func ok(_ hearth: CommandRunner, _ arguments: [String]) async throws -> String {
    let result = try await hearth.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    return result.standardOutput
  }

  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// Pairs a device as the server does: a code made (by `by`, or by the key's holder), then redeemed.
  @discardableResult
  private func pair(_ name: String, in database: HearthDatabase, by: UUID? = nil) throws -> PairedDevice {
    let now = Date()
    let code = Data("code \(name)".utf8)
    try database.addPairingCode(hash: code, expiresAt: now.addingTimeInterval(600), now: now, createdBy: by)
    let device = PairedDevice(name: name, createdAt: now)
    #expect(
      try database.redeemPairingCode(hash: code, now: now, adding: device, secretHash: Data("secret \(name)".utf8)))
    return device
  }

  @Test func anAppPasswordIsADeviceOfItsOwnShownOnceAndRevokedByName() async throws {
    let home = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let hearth = runner(home: home)
    let made = try await hearth.run(["devices", "app-password", "Ana's iPhone"])
    #expect(made.status == 0, "\(made.standardError)")
    let password = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(password.hasPrefix("hd_") && password.count > 40, "\(password)")
    #expect(made.standardError.contains("not shown again"))
    #expect(try await ok(hearth, ["devices", "list"]).contains("Ana's iPhone"))
    // Kept only as its hash: the password is nowhere in the profile's database.
    let database = try Data(contentsOf: home.appendingPathComponent("hearth.sqlite"))
    #expect(database.range(of: Data(password.utf8)) == nil)
    try await ok(hearth, ["devices", "revoke", "Ana's iPhone"])
    #expect(!(try await ok(hearth, ["devices", "list"]).contains("Ana's iPhone")))
  }

  @Test func aDeviceRevokedAfterTheBackupStaysRevokedAndOnePairedSinceKeepsWorking() async throws {
    let home = try TestModels.temporaryDirectory()
    let folder = try TestModels.temporaryDirectory()
    defer { for url in [home, folder] { try? FileManager.default.removeItem(at: url) } }
    let hearth = runner(home: home)
    try await ok(hearth, ["notes", "add", "Boiler", "--body", "The boiler code is 4471."])
    var database: HearthDatabase? = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    let laptop = try pair("Laptop", in: database!)
    try pair("Tablet", in: database!, by: laptop.id)
    let lost = try pair("Lost phone", in: database!)
    try database!.savePushSubscription(
      PushSubscription(
        endpoint: "https://push.example.org/lost", receiverKey: Data(repeating: 4, count: 65),
        authSecret: Data(repeating: 1, count: 16), createdAt: Date(), deviceID: lost.id, senderKey: "K"))
    let file = try #require(
      try json(try await ok(hearth, ["backup", "--to", folder.path, "--json"]))["file"] as? String)

    // After the backup: the phone is lost and revoked, a new one is paired.
    #expect(try database!.removeDevice(lost.id))
    try pair("New phone", in: database!)
    database = nil

    let report = try json(try await ok(hearth, ["restore", file, "--replace", "--json"]))
    #expect(report["devices_left_revoked"] as? [String] == ["Lost phone"])
    #expect(report["devices_from_backup"] as? [String] == [])
    let restored = try HearthDatabase(path: home.appendingPathComponent("hearth.sqlite").path)
    #expect(Set(try restored.pairedDevices().map(\.name)) == ["Laptop", "Tablet", "New phone"])
    #expect(try restored.pairedDevice(secretHash: Data("secret Lost phone".utf8)) == nil)
    #expect(try restored.pairedDevice(secretHash: Data("secret New phone".utf8))?.name == "New phone")
    #expect(try restored.pushSubscriptions().isEmpty)
    // The restored data is the backup's all the same.
    #expect(try await ok(hearth, ["notes", "list"]).contains("Boiler"))
    let text = try await ok(hearth, ["devices", "list"])
    #expect(!text.contains("Lost phone") && text.contains("New phone"))

    // On a new machine there is no profile to keep devices from: the backup's come back, named for review.
    let elsewhere = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    let result = try await runner(home: elsewhere).run(["restore", file])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("came back with the backup"))
    #expect(result.standardOutput.contains("Lost phone"))
  }
}
