import Foundation
import GRDB
import HearthCore
import HearthTestSupport
import Logging
import Testing

@testable import HearthEngine
@testable import HearthStore

/// Pairing codes and device secrets on a real (in-memory) database, with a clock the test moves.
@Suite("Paired devices")
struct DeviceServiceTests {
  static func service() throws -> (DeviceService, HearthDatabase, MovingClock) {
    let database = try HearthDatabase.inMemory()
    let clock = MovingClock(Date(timeIntervalSince1970: 1_800_000_000))
    return (DeviceService(database: database, clock: clock.read, logger: Logger(label: "test")), database, clock)
  }

  @Test func aCodePairsOneDeviceOnceAndItsSecretLetsItIn() throws {
    let (devices, database, _) = try Self.service()
    let code = try devices.makePairingCode()
    #expect(code.code.count == 9 && code.code.dropFirst(4).first == "-")
    #expect(code.code.allSatisfy { $0 == "-" || DeviceService.symbols.contains($0) })
    // Typed as people type it: lower case, a space for the dash.
    let (device, secret) = try devices.pair(
      code: code.code.lowercased().replacingOccurrences(of: "-", with: " "), name: " Pixel ")
    #expect(device.name == "Pixel" && secret.hasPrefix("hd_") && secret.count > 40)
    #expect(try devices.device(holding: secret)?.id == device.id)
    #expect(try devices.device(holding: secret + "x") == nil)
    // Single use.
    #expect { try devices.pair(code: code.code, name: "Another") } throws: { error in
      guard case DeviceError.wrongCode = error else { return false }
      return true
    }
    // Neither the code nor the secret is stored as it is: only their SHA-256.
    #expect(try database.pairedDevices().map(\.id) == [device.id])
    let stored = try database.read { db in try Data.fetchAll(db, sql: "SELECT secretHash FROM device") }
    #expect(stored == [DeviceService.hash(secret)] && !stored.contains(Data(secret.utf8)))
    let other = try devices.makePairingCode()
    let codes = try database.read { db in try Data.fetchAll(db, sql: "SELECT codeHash FROM pairingCode") }
    #expect(codes == [DeviceService.hash(DeviceService.normalized(other.code))])
    try devices.revoke(device.id)
    #expect(try devices.device(holding: secret) == nil)
    #expect(throws: DeviceError.self) { try devices.revoke(device.id) }
  }

  @Test func aCodeRunsOutAndGuessingIsLimited() throws {
    let (devices, _, clock) = try Self.service()
    let start = clock.read()
    let code = try devices.makePairingCode(minutes: 1)
    clock.set(start.addingTimeInterval(61))
    #expect { try devices.pair(code: code.code, name: "Late") } throws: { error in
      guard case DeviceError.wrongCode = error else { return false }
      return true
    }
    let fresh = try devices.makePairingCode()
    for _ in 0..<(DeviceService.attemptsPerMinute - 1) {
      #expect(throws: DeviceError.self) { try devices.pair(code: "0000-0000", name: "Guess") }
    }
    // The limit is reached: even the right code waits out the minute.
    #expect { try devices.pair(code: fresh.code, name: "Phone") } throws: { error in
      guard case DeviceError.tooManyAttempts(let seconds) = error else { return false }
      return (1...60).contains(seconds)
    }
    clock.set(start.addingTimeInterval(61 + 61))
    #expect(try devices.pair(code: fresh.code, name: "Phone").device.name == "Phone")
    // The limit is kept per address: one that guesses shuts out only itself.
    let another = try devices.makePairingCode()
    for _ in 0..<DeviceService.attemptsPerMinute {
      #expect(throws: DeviceError.self) { try devices.pair(code: "0000-0000", name: "Guess", from: "192.0.2.7") }
    }
    #expect(throws: DeviceError.self) { try devices.pair(code: another.code, name: "Guess", from: "192.0.2.7") }
    #expect(try devices.pair(code: another.code, name: "Tablet", from: "192.0.2.8").device.name == "Tablet")
    #expect(throws: DeviceError.self) { try devices.pair(code: "x", name: "bad\u{1B}[2Jname") }
    #expect(throws: DeviceError.self) { try devices.makePairingCode(minutes: 0) }
    #expect(throws: DeviceError.self) { try devices.makePairingCode(minutes: 61) }
  }

  @Test func revokingADeviceRevokesWhatItPairedAndItsNotifications() throws {
    let (devices, database, _) = try Self.service()
    let (first, firstSecret) = try devices.pair(code: try devices.makePairingCode().code, name: "Phone")
    let (second, secondSecret) = try devices.pair(code: try devices.makePairingCode(by: first.id).code, name: "Tablet")
    let (third, _) = try devices.pair(code: try devices.makePairingCode().code, name: "Laptop")
    try database.savePushSubscription(
      PushSubscription(
        endpoint: "https://push.example/1", receiverKey: Data([4]), authSecret: Data(count: 16), createdAt: Date(),
        deviceID: first.id, senderKey: "k"))
    try devices.revoke(first.id)
    #expect(try devices.device(holding: firstSecret) == nil && devices.device(holding: secondSecret) == nil)
    #expect(try devices.list().map(\.id) == [third.id] && second.id != third.id)
    #expect(try database.pushSubscriptions().isEmpty)
  }

  @Test func lastUseIsWrittenOnceAMinuteAndDevicesAreFoundByIdOrName() throws {
    let (devices, _, clock) = try Self.service()
    let start = clock.read()
    let (device, secret) = try devices.pair(code: try devices.makePairingCode().code, name: "Tablet")
    clock.set(start.addingTimeInterval(30))
    _ = try devices.device(holding: secret)
    clock.set(start.addingTimeInterval(45))
    _ = try devices.device(holding: secret)
    #expect(try devices.list().first?.lastUsedAt == start.addingTimeInterval(30))
    #expect(try devices.find(String(device.id.uuidString.prefix(8))).id == device.id)
    #expect(try devices.find("Tablet").id == device.id)
    #expect(throws: DeviceError.self) { try devices.find("abc") }
    try devices.rename(device.id, to: "Kitchen tablet")
    #expect(try devices.list().map(\.name) == ["Kitchen tablet"])
    #expect(throws: DeviceError.self) { try devices.rename(device.id, to: "  ") }
  }
}
