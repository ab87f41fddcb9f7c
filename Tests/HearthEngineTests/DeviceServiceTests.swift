import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

@testable import HearthEngine

/// Pairing codes and device secrets on a real (in-memory) database, with a clock the test moves.
@Suite("Paired devices")
struct DeviceServiceTests {
  static func service() throws -> (DeviceService, HearthDatabase, MovingClock) {
    let database = try HearthDatabase.inMemory()
    let clock = MovingClock(Date(timeIntervalSince1970: 1_800_000_000))
    return (DeviceService(database: database, clock: clock.read), database, clock)
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
    #expect(throws: DeviceError.self) { try devices.pair(code: code.code, name: "Another") }
    // Neither the code nor the secret is stored as it is.
    let stored = try database.pairedDevices()
    #expect(stored.map(\.id) == [device.id])
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
    #expect(throws: DeviceError.self) { try devices.makePairingCode(minutes: 0) }
    #expect(throws: DeviceError.self) { try devices.makePairingCode(minutes: 61) }
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
