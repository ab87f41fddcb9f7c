public import Foundation

/// The readable start of a backup file: what it holds and how it was compressed and sealed. Written in the clear
/// (it says nothing about the user's data) and authenticated with every sealed frame, so it cannot be changed.
public struct BackupHeader: Codable, Sendable, Equatable {
  /// The on-disk format; readers refuse formats they do not know.
  public var format: Int
  /// When the backup was taken.
  public var created: Date
  /// How the payload is compressed: `zlib`.
  public var compression: String
  /// The most plaintext bytes one frame holds.
  public var frameSize: Int
  /// How the frames are sealed, or `nil` for a backup without a passphrase.
  public var sealing: Sealing?

  /// The format this version writes and reads.
  public static let currentFormat = 1
  /// The frame sizes a backup may use: large enough to compress well, small enough to hold in memory.
  public static let frameSizes = 1...(16 << 20)
  /// The bytes every backup starts with.
  static let magic = Array("HEARTH-BACKUP\n".utf8)
  /// The largest header a reader accepts.
  static let largestHeader = 64 * 1024

  /// The cipher and key derivation of an encrypted backup.
  public struct Sealing: Codable, Sendable, Equatable {
    /// `chacha20-poly1305`.
    public var cipher: String
    /// `scrypt`.
    public var keyDerivation: String
    /// The key derivation's cost.
    public var cost: KeyDerivationCost
    /// The key derivation's salt (random, 16 bytes).
    public var salt: Data
    /// The first 7 bytes of every frame's nonce (random); the frame's number and a last-frame flag follow.
    public var noncePrefix: Data
    /// A value only the right passphrase reproduces, so that a wrong one is told apart from a damaged file.
    public var check: Data
  }
}

/// scrypt's parameters: `rounds` (N, a power of two), `blockSize` (r) and `parallelism` (p). Memory is
/// 128 × N × r bytes.
public struct KeyDerivationCost: Codable, Sendable, Hashable {
  public var rounds: Int
  public var blockSize: Int
  public var parallelism: Int

  public init(rounds: Int, blockSize: Int, parallelism: Int) {
    (self.rounds, self.blockSize, self.parallelism) = (rounds, blockSize, parallelism)
  }

  /// What backups are sealed with: N = 2¹⁷, r = 8, p = 1 (128 MiB, the cost OWASP recommends for scrypt).
  public static let standard = KeyDerivationCost(rounds: 1 << 17, blockSize: 8, parallelism: 1)

  /// Whether a reader should attempt it: a file cannot make Hearth spend more than 1 GiB or run for minutes.
  var isBounded: Bool {
    rounds >= 2 && rounds <= 1 << 20 && rounds & (rounds - 1) == 0 && (1...16).contains(blockSize)
      && (1...4).contains(parallelism) && 128 * rounds * blockSize * parallelism <= 1 << 30
  }
}

extension BackupHeader {
  /// The header as written: the magic, its length (4 bytes, big-endian), then its JSON.
  func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    let json = Array(try encoder.encode(self))
    return Self.magic + UInt32(json.count).bigEndianBytes + json
  }

  /// Reads the header at the start of `handle`, returning it with its bytes as written (the sealed frames'
  /// associated data).
  static func read(from handle: FileHandle, path: String) throws(BackupError) -> (BackupHeader, [UInt8]) {
    let start = try handle.readExactly(magic.count + 4, path: path) { .notABackup(path: path) }
    guard Array(start.prefix(magic.count)) == magic else { throw .notABackup(path: path) }
    let length = Int(UInt32(bigEndianBytes: start.suffix(4)))
    guard length > 0, length <= largestHeader else { throw .damaged(path: path, detail: "its header is unreadable") }
    let json = try handle.readExactly(length, path: path) { .damaged(path: path, detail: "it ends inside its header") }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let header: BackupHeader
    do {
      header = try decoder.decode(BackupHeader.self, from: Data(json))
    } catch {
      throw .damaged(path: path, detail: "its header is unreadable")
    }
    guard header.format == currentFormat else {
      throw .unsupportedFormat(path: path, detail: "format \(header.format); this version reads \(currentFormat)")
    }
    guard header.compression == "zlib", frameSizes.contains(header.frameSize) else {
      throw .unsupportedFormat(path: path, detail: "compression \(header.compression)")
    }
    if let sealing = header.sealing {
      guard sealing.cipher == "chacha20-poly1305", sealing.keyDerivation == "scrypt" else {
        throw .unsupportedFormat(path: path, detail: "\(sealing.cipher) with \(sealing.keyDerivation)")
      }
      guard sealing.cost.isBounded, sealing.noncePrefix.count == 7, sealing.salt.count >= 16 else {
        throw .damaged(path: path, detail: "its encryption settings are out of bounds")
      }
    }
    return (header, start + json)
  }
}

extension UInt32 {
  var bigEndianBytes: [UInt8] {
    [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)]
  }

  init<Bytes: Collection<UInt8>>(bigEndianBytes bytes: Bytes) {
    self = bytes.reduce(0) { $0 << 8 | UInt32($1) }
  }
}

extension FileHandle {
  /// Exactly `count` bytes, or the error `short` makes when the file ends first.
  func readExactly(_ count: Int, path: String, short: () -> BackupError) throws(BackupError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      let piece: Data?
      do {
        piece = try read(upToCount: count - bytes.count)
      } catch {
        throw .read(path: path, detail: FileErrorText.describe(error))
      }
      guard let piece, !piece.isEmpty else { throw short() }
      bytes.append(contentsOf: piece)
    }
    return bytes
  }
}
