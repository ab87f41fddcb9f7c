import Foundation
import HearthCore
import HearthStore
import Testing

@Suite("Paired devices carried from one copy of a profile to another")
struct PairingStoreTests {
  private func pair(_ name: String, in database: HearthDatabase, by: UUID? = nil) throws -> PairedDevice {
    let now = Date()
    let code = Data("code \(name)".utf8)
    try database.addPairingCode(hash: code, expiresAt: now.addingTimeInterval(600), now: now, createdBy: by)
    let device = PairedDevice(name: name, createdAt: now)
    #expect(try database.redeemPairingCode(hash: code, now: now, adding: device, secretHash: Data("s \(name)".utf8)))
    return device
  }

  @Test func theOtherCopysDevicesCodesAndSubscriptionsReplaceThisOnes() throws {
    let (restored, current) = (try HearthDatabase.inMemory(), try HearthDatabase.inMemory())
    let lost = try pair("Lost phone", in: restored)
    try restored.savePushSubscription(
      PushSubscription(
        endpoint: "https://push.example.org/a", receiverKey: Data([4]), authSecret: Data([1]), createdAt: Date(),
        deviceID: lost.id, senderKey: "K"))
    let laptop = try pair("Laptop", in: current)
    // Paired by the laptop: the reference is checked once all rows are in, whatever order they are read in.
    let tablet = try pair("Tablet", in: current, by: laptop.id)
    try current.savePushSubscription(
      PushSubscription(
        endpoint: "https://push.example.org/b", receiverKey: Data([4]), authSecret: Data([1]), createdAt: Date(),
        deviceID: tablet.id, senderKey: "K"))
    try current.addPairingCode(hash: Data("waiting".utf8), expiresAt: .distantFuture, now: Date(), createdBy: nil)

    #expect(try restored.adoptPairing(try current.pairing()) == ["Lost phone"])
    #expect(Set(try restored.pairedDevices().map(\.name)) == ["Laptop", "Tablet"])
    #expect(try restored.pairedDevice(secretHash: Data("s Lost phone".utf8)) == nil)
    #expect(try restored.pushSubscriptions().map(\.endpoint) == ["https://push.example.org/b"])
    let joining = PairedDevice(name: "Joining", createdAt: Date())
    #expect(
      try restored.redeemPairingCode(hash: Data("waiting".utf8), now: Date(), adding: joining, secretHash: Data([9])))
    // The paired-by link came along: revoking the laptop revokes the tablet it let in.
    #expect(try restored.removeDevice(laptop.id))
    #expect(try restored.pairedDevices().map(\.name) == ["Joining"])
  }
}
