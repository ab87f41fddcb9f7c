import Crypto
public import Foundation

/// Writes one backup file: files are added one by one, streamed through zlib into frames (sealed when there is
/// a passphrase), and `finish` writes the manifest and moves the file into place. Until then the bytes live in
/// a `.partial` file beside it, removed if the backup fails or is dropped, so a backup is whole or absent.
public final class BackupWriter {
  /// Where the finished backup goes.
  public let destination: URL
  private let partial: URL
  private let handle: FileHandle
  private var frames: FrameWriter
  private let deflater: Deflater
  private let frameSize: Int
  private let created: Date
  private var pending: [UInt8] = []
  private var entries: [BackupManifest.Entry] = []
  private var finished = false

  /// Starts a backup at `destination`, which must not exist yet.
  /// - Parameters:
  ///   - passphrase: seals the backup (ChaCha20-Poly1305 under an scrypt key); `nil` leaves it unsealed.
  ///   - cost: scrypt's cost; tests of the format may lower it, backups of a profile keep the standard one.
  /// - Throws: ``BackupError/write(path:detail:)`` naming the cause (no space, a read-only folder).
  public init(
    creating destination: URL, passphrase: String?, cost: KeyDerivationCost = .standard, created: Date = Date(),
    frameSize: Int = 1 << 20
  ) throws(BackupError) {
    guard BackupHeader.frameSizes.contains(frameSize) else {
      throw .write(
        path: destination.path, detail: "a frame of \(frameSize) bytes is outside \(BackupHeader.frameSizes)")
    }
    self.destination = destination
    // Whole seconds, as the header and manifest write it.
    let created = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down))
    self.created = created
    self.frameSize = frameSize
    partial = destination.appendingPathExtension("partial")
    var sealing: BackupHeader.Sealing?
    var keys: BackupKeys?
    if let passphrase {
      let salt = Data(Self.randomBytes(16))
      let derived = try BackupKeys.derive(passphrase: passphrase, salt: salt, cost: cost)
      keys = derived
      sealing = BackupHeader.Sealing(
        cipher: "chacha20-poly1305", keyDerivation: "scrypt", cost: cost, salt: salt,
        noncePrefix: Data(Self.randomBytes(7)), check: derived.check)
    }
    let header = BackupHeader(
      format: BackupHeader.currentFormat, created: created, compression: "zlib", frameSize: frameSize,
      sealing: sealing)
    guard !FileManager.default.fileExists(atPath: destination.path) else {
      throw .write(path: destination.path, detail: "a file of that name is already there")
    }
    let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw .write(path: destination.path, detail: Self.lastSystemError()) }
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      deflater = try Deflater()
    } catch {
      unlink(partial.path)
      throw .write(path: destination.path, detail: "zlib could not start: \(error)")
    }
    let headerBytes: [UInt8]
    do {
      headerBytes = try header.encoded()
      try handle.write(contentsOf: headerBytes)
    } catch {
      unlink(partial.path)
      throw .write(path: destination.path, detail: FileErrorText.describe(error))
    }
    var seal: FrameSeal?
    if let keys, let sealing {
      seal = FrameSeal(key: keys.sealing, noncePrefix: sealing.noncePrefix, header: headerBytes)
    }
    frames = FrameWriter(handle: handle, path: destination.path, seal: seal)
  }

  deinit {
    if !finished {
      unlink(partial.path)
    }
  }

  /// Adds the file at `source` as `path` (relative to the profile), read in 1 MiB pieces and hashed as it goes.
  /// - Throws: ``BackupError/read(path:detail:)`` when the file cannot be read or shrinks while it is read.
  @discardableResult
  public func add(fileAt source: URL, as path: String) throws(BackupError) -> BackupManifest.Entry {
    guard BackupPath.isSafe(path) else { throw .unsafeEntry(path: destination.path, entry: path) }
    let reading: FileHandle
    let size: UInt64
    let mode: Int
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: source.path)
      mode = (attributes[.posixPermissions] as? Int ?? 0o600) & 0o700
      reading = try FileHandle(forReadingFrom: source)
      size = try reading.seekToEnd()
      try reading.seek(toOffset: 0)
    } catch {
      throw .read(path: source.path, detail: FileErrorText.describe(error))
    }
    defer { try? reading.close() }
    let entry = StoredEntry(path: path, size: size, mode: mode)
    try addRecord(.file, json: entry)
    var digest = SHA256()
    var left = size
    while left > 0 {
      let piece: Data?
      do {
        piece = try reading.read(upToCount: Int(min(left, 1 << 20)))
      } catch {
        throw .read(path: source.path, detail: FileErrorText.describe(error))
      }
      guard let piece, !piece.isEmpty else {
        throw .read(path: source.path, detail: "it became shorter while it was backed up")
      }
      digest.update(data: piece)
      try compress(piece)
      left -= UInt64(piece.count)
    }
    let sum = Array(digest.finalize())
    try compress(Data(sum))
    let stored = BackupManifest.Entry(path: path, size: size, sha256: sum.hex, mode: mode)
    entries.append(stored)
    return stored
  }

  /// Writes the manifest (the files added so far, with `tables`, `includes` and `sourceFolder`), ends the stream, makes the
  /// file durable and moves it to ``destination``.
  /// - Returns: the manifest as written.
  @discardableResult
  public func finish(
    tables: [String: Int], includes: [String], sourceFolder: String? = nil
  ) throws(BackupError) -> BackupManifest {
    let manifest = BackupManifest(
      created: created, entries: entries, tables: tables, includes: includes, sourceFolder: sourceFolder)
    try addRecord(.manifest, json: manifest)
    do {
      try deflater.finish { try emit($0) }
    } catch let error as BackupError {
      throw error
    } catch {
      throw .write(path: destination.path, detail: "zlib failed: \(error)")
    }
    while pending.count > frameSize {
      try frames.write(Array(pending.prefix(frameSize)), last: false)
      pending.removeFirst(frameSize)
    }
    try frames.write(pending, last: true)
    pending = []
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw .write(path: destination.path, detail: FileErrorText.describe(error))
    }
    guard rename(partial.path, destination.path) == 0 else {
      throw .write(path: destination.path, detail: Self.lastSystemError())
    }
    finished = true
    Self.synchronizeFolder(of: destination)
    return manifest
  }

  private func addRecord(_ kind: PayloadRecord, json value: some Encodable) throws(BackupError) {
    let json: [UInt8]
    do {
      json = Array(try PayloadRecord.encoder.encode(value))
    } catch {
      throw .write(path: destination.path, detail: "could not encode its contents: \(error)")
    }
    try compress(Data([kind.rawValue] + UInt32(json.count).bigEndianBytes + json))
  }

  private func compress(_ data: Data) throws(BackupError) {
    do {
      try data.withUnsafeBytes { bytes in try deflater.add(bytes) { try emit($0) } }
    } catch let error as BackupError {
      throw error
    } catch {
      throw .write(path: destination.path, detail: "zlib failed: \(error)")
    }
  }

  private func emit(_ bytes: [UInt8]) throws(BackupError) {
    pending.append(contentsOf: bytes)
    while pending.count > frameSize {
      try frames.write(Array(pending.prefix(frameSize)), last: false)
      pending.removeFirst(frameSize)
    }
  }

  static func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  /// The last system call's error, in words (`No space left on device`).
  public static func lastSystemError() -> String { String(cString: strerror(errno)) }

  /// The rename is durable only once the folder's entry is on disk too.
  public static func synchronizeFolder(of file: URL) {
    let descriptor = open(file.deletingLastPathComponent().path, O_RDONLY)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}

extension Collection<UInt8> {
  var hex: String { map { String(format: "%02x", $0) }.joined() }
}
