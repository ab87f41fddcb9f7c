import Crypto
import CryptoExtras
import Foundation

/// The keys of an encrypted backup, derived from its passphrase with scrypt: 32 bytes seal the frames, 32 more
/// make the header's check value.
struct BackupKeys {
  let sealing: SymmetricKey
  let check: Data

  /// Derives the keys; the passphrase is taken in Unicode's composed form, so it opens the backup however the
  /// keyboard that typed it composed its accents.
  static func derive(passphrase: String, salt: Data, cost: KeyDerivationCost) throws(BackupError) -> BackupKeys {
    let normalized = passphrase.precomposedStringWithCanonicalMapping
    guard !normalized.isEmpty else { throw .unusablePassphrase("it is empty") }
    let derived: SymmetricKey
    do {
      derived = try KDF.Scrypt.deriveKey(
        from: Array(normalized.utf8), salt: salt, outputByteCount: 64, rounds: cost.rounds,
        blockSize: cost.blockSize, parallelism: cost.parallelism)
    } catch {
      throw .unusablePassphrase("the key derivation failed: \(error)")
    }
    let bytes = derived.withUnsafeBytes { Array($0) }
    let checkKey = SymmetricKey(data: bytes[32..<64])
    let code = HMAC<SHA256>.authenticationCode(for: Array("hearth backup passphrase".utf8), using: checkKey)
    return BackupKeys(sealing: SymmetricKey(data: bytes[0..<32]), check: Data(code).prefix(16))
  }
}

/// How a frame is sealed: ChaCha20-Poly1305 under the backup's key, its nonce the header's 7-byte prefix, the
/// frame's number and a last-frame flag (so frames cannot be reordered, dropped or cut off unnoticed), the
/// header's bytes authenticated with every frame.
struct FrameSeal {
  let key: SymmetricKey
  let noncePrefix: Data
  let header: [UInt8]

  func nonce(frame: UInt32, last: Bool) throws -> ChaChaPoly.Nonce {
    try ChaChaPoly.Nonce(data: noncePrefix + frame.bigEndianBytes + [last ? 1 : 0])
  }
}

/// The frames of a backup, written in order: a 4-byte big-endian length whose top bit marks the last frame,
/// then the frame's bytes (sealed when the backup has a passphrase).
struct FrameWriter {
  let handle: FileHandle
  let path: String
  let seal: FrameSeal?
  private var count: UInt32 = 0

  init(handle: FileHandle, path: String, seal: FrameSeal?) {
    (self.handle, self.path, self.seal) = (handle, path, seal)
  }

  mutating func write(_ plain: [UInt8], last: Bool) throws(BackupError) {
    var body = plain
    if let seal {
      do {
        let box = try ChaChaPoly.seal(
          plain, using: seal.key, nonce: try seal.nonce(frame: count, last: last), authenticating: seal.header)
        body = Array(box.ciphertext) + Array(box.tag)
      } catch {
        throw .write(path: path, detail: "sealing failed: \(error)")
      }
    }
    let length = UInt32(body.count) | (last ? 1 << 31 : 0)
    do {
      try handle.write(contentsOf: length.bigEndianBytes + body)
    } catch {
      throw .write(path: path, detail: FileErrorText.describe(error))
    }
    count += 1
  }
}

/// Reads the frames back, opening sealed ones; a frame that does not open, a file that ends before its last
/// frame or bytes after it are damage.
struct FrameReader {
  let handle: FileHandle
  let path: String
  let seal: FrameSeal?
  let largestFrame: Int
  private var count: UInt32 = 0
  private var ended = false

  init(handle: FileHandle, path: String, seal: FrameSeal?, frameSize: Int) {
    (self.handle, self.path, self.seal) = (handle, path, seal)
    largestFrame = frameSize + 16
  }

  /// The next frame's plaintext, or `nil` after the last one.
  mutating func next() throws(BackupError) -> [UInt8]? {
    let path = path
    guard !ended else { return nil }
    let cutOff = BackupError.damaged(path: path, detail: "it ends early (the file was cut off)")
    let word = UInt32(bigEndianBytes: try handle.readExactly(4, path: path) { cutOff })
    let last = word & 1 << 31 != 0
    let length = Int(word & ~(1 << 31))
    guard length <= largestFrame else { throw .damaged(path: path, detail: "frame \(count) has an impossible length") }
    let body = try handle.readExactly(length, path: path) { cutOff }
    var plain = body
    if let seal {
      guard body.count >= 16 else { throw .damaged(path: path, detail: "frame \(count) is too short") }
      do {
        let box = try ChaChaPoly.SealedBox(
          nonce: try seal.nonce(frame: count, last: last), ciphertext: body.dropLast(16), tag: body.suffix(16))
        plain = Array(try ChaChaPoly.open(box, using: seal.key, authenticating: seal.header))
      } catch {
        throw .damaged(path: path, detail: "frame \(count) does not authenticate (changed or corrupted)")
      }
    }
    count += 1
    if last {
      ended = true
      let after: Data?
      do {
        after = try handle.read(upToCount: 1)
      } catch {
        throw .read(path: path, detail: FileErrorText.describe(error))
      }
      guard after?.isEmpty ?? true else { throw .damaged(path: path, detail: "bytes follow its last frame") }
    }
    return plain
  }
}
