import Crypto
public import Foundation
public import HearthCore
import HearthPush
public import HearthStore
import Logging
import Synchronization

/// The devices paired with this profile: pairing codes made on a trusted device (or by `hearth devices pair`),
/// redeemed once by a new device for a secret of its own, and the secrets checked on every request. Codes and
/// secrets are kept only as SHA-256 hashes, so the database holds nothing that lets a device in.
public final class DeviceService: Sendable {
  private let database: HearthDatabase
  private let clock: @Sendable () -> Date
  private let logger: Logger
  /// When pairing attempts with a wrong code were made, and from where, for the limits on guessing.
  private let failures = Mutex<[(at: Date, source: String?)]>([])
  /// When each device's last use was written, so a busy device writes it once a minute, not on every request.
  private let lastWritten = Mutex<[UUID: Date]>([:])

  /// Wrong codes allowed per minute from one address: with eight symbols of 32 (2⁴⁰ codes) and ten minutes per
  /// code, guessing has no chance.
  public static let attemptsPerMinute = 5
  /// Wrong codes allowed per minute from everywhere together, so many addresses guess no faster; high enough that
  /// one address cannot shut everyone else out of pairing.
  public static let attemptsPerMinuteInAll = 60
  /// The symbols of a code: Crockford's base 32, which leaves out I, L, O and U so that nothing reads as another.
  static let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

  init(database: HearthDatabase, clock: @escaping @Sendable () -> Date, logger: Logger) {
    self.database = database
    self.clock = clock
    self.logger = logger
  }

  /// A new single-use code, valid for `minutes` (1 to 60). `by` is the paired device asking, if one is: the device
  /// its code lets in is revoked with it.
  public func makePairingCode(minutes: Int = 10, by creator: UUID? = nil) throws(DeviceError) -> PairingCode {
    guard (1...60).contains(minutes) else { throw .badValidity(minutes) }
    var generator = SystemRandomNumberGenerator()
    let raw = String((0..<8).map { _ in Self.symbols[Int(generator.next(upperBound: UInt32(Self.symbols.count)))] })
    let now = clock()
    let code = PairingCode(
      code: "\(raw.prefix(4))-\(raw.suffix(4))", expiresAt: now.addingTimeInterval(Double(minutes) * 60))
    do {
      try database.addPairingCode(
        hash: Self.hash(Self.normalized(raw)), expiresAt: code.expiresAt, now: now, createdBy: creator)
    } catch {
      throw .store(error)
    }
    return code
  }

  /// Redeems `code` for a new device named `name`, returning the device and its secret (shown once, kept
  /// nowhere). A wrong, used or expired code counts against the limits on guessing, kept per `source` (the
  /// client's address) and for all together.
  public func pair(
    code: String, name: String, from source: String? = nil, appPassword: Bool = false
  ) throws(DeviceError)
    -> (device: PairedDevice, secret: String)
  {
    let trimmed = try Self.checkedName(name)
    let now = clock()
    // An attempt counts as a failure from the start, so a burst of guesses cannot all pass the check at once; a
    // right code takes its count back.
    try reserveAttempt(now: now, source: source)
    var bytes = [UInt8](repeating: 0, count: 32)
    var generator = SystemRandomNumberGenerator()
    for index in bytes.indices { bytes[index] = generator.next() }
    let secret = "hd_" + Base64URL.encode(bytes)
    let device = PairedDevice(name: trimmed, createdAt: now, lastUsedAt: now, isAppPassword: appPassword)
    let redeemed: Bool
    do {
      redeemed = try database.redeemPairingCode(
        hash: Self.hash(Self.normalized(code)), now: now, adding: device, secretHash: Self.hash(secret))
    } catch {
      throw .store(error)
    }
    guard redeemed else { throw .wrongCode }
    failures.withLock { failures in
      if let index = failures.lastIndex(where: { $0.at == now && $0.source == source }) { failures.remove(at: index) }
    }
    return (device, secret)
  }

  /// A device added by someone already trusted (the key's holder, or the paired device `creator`) for an app that
  /// cannot type a code: a calendar or contacts app, which sends the secret as its password (an app password).
  /// Revoking `creator` revokes it too.
  public func addAppPassword(
    name: String, by creator: UUID? = nil
  ) throws(DeviceError)
    -> (device: PairedDevice, secret: String)
  {
    let code = try makePairingCode(minutes: 1, by: creator)
    return try pair(code: code.code, name: name, from: "app-password", appPassword: true)
  }

  private func reserveAttempt(now: Date, source: String?) throws(DeviceError) {
    let oldest: Date? = failures.withLock { failures in
      failures.removeAll { now.timeIntervalSince($0.at) >= 60 }
      let mine = failures.filter { $0.source == source }
      if mine.count >= Self.attemptsPerMinute { return mine.map(\.at).min() }
      if failures.count >= Self.attemptsPerMinuteInAll { return failures.map(\.at).min() }
      failures.append((now, source))
      return nil
    }
    if let oldest {
      throw .tooManyAttempts(retryAfter: max(1, Int((60 - now.timeIntervalSince(oldest)).rounded(.up))))
    }
  }

  /// A name as it is kept: trimmed, 1 to 80 characters, no control characters (it is printed in a terminal).
  static func checkedName(_ name: String) throws(DeviceError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard (1...80).contains(trimmed.count),
      !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
    else { throw .badName }
    return trimmed
  }

  /// The device holding `secret`, if it is still paired; its last use is noted once a minute at most.
  public func device(holding secret: String) throws(DeviceError) -> PairedDevice? {
    guard secret.hasPrefix("hd_") else { return nil }
    let found: PairedDevice?
    do {
      found = try database.pairedDevice(secretHash: Self.hash(secret))
    } catch {
      throw .store(error)
    }
    guard let device = found else { return nil }
    let now = clock()
    let due = lastWritten.withLock { written in
      guard written[device.id].map({ now.timeIntervalSince($0) >= 60 }) ?? true else { return false }
      written[device.id] = now
      return true
    }
    if due {
      // Only bookkeeping: a database busy with another writer does not turn a good device away.
      do {
        try database.markDeviceUsed(device.id, at: now)
      } catch {
        logger.info("a device's last use could not be noted", metadata: ["error": "\(type(of: error))"])
      }
    }
    return device
  }

  /// Every paired device, the most recently paired first.
  public func list() throws(DeviceError) -> [PairedDevice] {
    do { return try database.pairedDevices() } catch { throw .store(error) }
  }

  /// Gives a device another name.
  public func rename(_ id: UUID, to name: String) throws(DeviceError) {
    let trimmed = try Self.checkedName(name)
    let renamed: Bool
    do { renamed = try database.renameDevice(id, to: trimmed) } catch { throw .store(error) }
    guard renamed else { throw .notFound(id.uuidString) }
  }

  /// Cuts a device off: its secret is forgotten, and its next request is refused; so are the devices it paired and
  /// the notifications it subscribed to.
  public func revoke(_ id: UUID) throws(DeviceError) {
    let removed: Bool
    do { removed = try database.removeDevice(id) } catch { throw .store(error) }
    guard removed else { throw .notFound(id.uuidString) }
  }

  /// Finds a device by its id or the start of it (as `hearth devices list` shows), or by its exact name.
  public func find(_ reference: String) throws(DeviceError) -> PairedDevice {
    let devices = try list()
    let lowered = reference.lowercased()
    let matches = devices.filter { $0.id.uuidString.lowercased().hasPrefix(lowered) && lowered.count >= 4 }
    if matches.count == 1 { return matches[0] }
    let named = devices.filter { $0.name == reference }
    if named.count == 1 { return named[0] }
    throw matches.count + named.count > 1 ? .ambiguous(reference) : .notFound(reference)
  }

  /// A code as typed: upper case, without spaces or dashes, with the letters that look like digits read as them.
  static func normalized(_ code: String) -> String {
    String(
      code.uppercased().compactMap { character -> Character? in
        switch character {
        case " ", "-": nil
        case "O": "0"
        case "I", "L": "1"
        default: character
        }
      })
  }

  static func hash(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }
}

/// Why pairing or managing a device failed.
public enum DeviceError: Error, Sendable, CustomStringConvertible {
  case wrongCode
  case tooManyAttempts(retryAfter: Int)
  case badName
  case badValidity(Int)
  case notFound(String)
  case ambiguous(String)
  case store(StoreError)

  public var description: String {
    switch self {
    case .wrongCode: "that pairing code is wrong, used or expired; make a new one on a paired device"
    case .tooManyAttempts(let seconds): "too many wrong pairing codes; try again in \(seconds) s"
    case .badName: "a device's name must have 1 to 80 characters, none of them a control character"
    case .badValidity(let minutes): "a pairing code may last 1 to 60 minutes, not \(minutes)"
    case .notFound(let reference): "no paired device \(reference) (see hearth devices list)"
    case .ambiguous(let reference): "more than one paired device matches \(reference); give more of its id"
    case .store(let error): "the devices could not be read or written: \(error)"
    }
  }
}
