import Crypto
public import Foundation

/// Reads a backup file back, checking every byte: the header, the passphrase, each frame's seal, each file's
/// SHA-256 and the manifest against the files found. ``read(into:)`` restores the files into a folder, or only
/// checks them when given none.
public final class BackupReader {
  /// The file being read.
  public let path: String
  /// What the file says of itself.
  public let header: BackupHeader
  private let handle: FileHandle
  private var frames: FrameReader
  private let inflater: Inflater
  private var buffer: [UInt8] = []
  private var offset = 0
  private var framesEnded = false

  /// Opens the backup at `url` and checks its passphrase.
  /// - Throws: ``BackupError``: not a backup, a format this version does not read, a passphrase needed or
  ///   wrong, a damaged header.
  public init(opening url: URL, passphrase: String?) throws(BackupError) {
    path = url.path
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw .read(path: url.path, detail: FileErrorText.describe(error))
    }
    let (header, headerBytes) = try BackupHeader.read(from: handle, path: url.path)
    self.header = header
    var seal: FrameSeal?
    if let sealing = header.sealing {
      guard let passphrase else { throw .passphraseNeeded(path: url.path) }
      let keys = try BackupKeys.derive(passphrase: passphrase, salt: sealing.salt, cost: sealing.cost)
      guard keys.check == sealing.check else { throw .wrongPassphrase(path: url.path) }
      seal = FrameSeal(key: keys.sealing, noncePrefix: sealing.noncePrefix, header: headerBytes)
    }
    frames = FrameReader(handle: handle, path: url.path, seal: seal, frameSize: header.frameSize)
    do {
      inflater = try Inflater()
    } catch {
      throw .read(path: url.path, detail: "zlib could not start: \(error)")
    }
  }

  deinit { try? handle.close() }

  /// Only the header of the backup at `url`: when and how it was written, readable without its passphrase.
  public static func header(of url: URL) throws(BackupError) -> BackupHeader {
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw .read(path: url.path, detail: FileErrorText.describe(error))
    }
    defer { try? handle.close() }
    return try BackupHeader.read(from: handle, path: url.path).0
  }

  /// Reads the whole backup. With a folder, each file that `extracting` picks by its path is written under it
  /// (folders 0700, files with the user's part of their mode) and made durable; the others, and all of them
  /// without a folder, are only checked.
  /// - Returns: the manifest, once every file matched it.
  /// - Throws: ``BackupError/damaged(path:detail:)`` at the first byte that does not check out,
  ///   ``BackupError/unsafeEntry(path:entry:)`` for a path outside the folder.
  public func read(
    into folder: URL?, extracting: (String) -> Bool = { _ in true }
  ) throws(BackupError) -> BackupManifest {
    var seen: [BackupManifest.Entry] = []
    while true {
      let kind = try take(1)[0]
      switch PayloadRecord(rawValue: kind) {
      case .file:
        let entry: StoredEntry = try record(limit: PayloadRecord.largestEntry)
        seen.append(try readFile(entry, into: extracting(entry.path) ? folder : nil))
      case .manifest:
        let manifest: BackupManifest = try record(limit: PayloadRecord.largestManifest)
        try expectEnd()
        guard manifest.entries == seen else {
          throw .damaged(path: path, detail: "its table of contents does not match the files it holds")
        }
        return manifest
      case nil:
        throw .damaged(path: path, detail: "it holds a record of an unknown kind (\(kind))")
      }
    }
  }

  private func readFile(_ entry: StoredEntry, into folder: URL?) throws(BackupError) -> BackupManifest.Entry {
    guard BackupPath.isSafe(entry.path) else { throw .unsafeEntry(path: path, entry: entry.path) }
    let output = try folder.map { folder throws(BackupError) in try Self.create(entry, in: folder) }
    defer { try? output?.close() }
    var digest = SHA256()
    var left = entry.size
    while left > 0 {
      let piece = try take(Int(min(left, 1 << 20)))
      piece.withUnsafeBytes { digest.update(bufferPointer: $0) }
      if let output {
        do {
          try output.write(contentsOf: piece)
        } catch {
          throw .extract(
            path: folder?.appendingPathComponent(entry.path).path ?? entry.path, detail: FileErrorText.describe(error))
        }
      }
      left -= UInt64(piece.count)
    }
    let expected = try take(32)
    let actual = Array(digest.finalize())
    guard actual == expected else { throw .damaged(path: path, detail: "\(entry.path) does not match its checksum") }
    if let output {
      do {
        try output.synchronize()
      } catch {
        throw .extract(
          path: folder?.appendingPathComponent(entry.path).path ?? entry.path, detail: FileErrorText.describe(error))
      }
    }
    return BackupManifest.Entry(path: entry.path, size: entry.size, sha256: actual.hex, mode: entry.mode)
  }

  private static func create(_ entry: StoredEntry, in folder: URL) throws(BackupError) -> FileHandle {
    let target = folder.appendingPathComponent(entry.path)
    do {
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .extract(path: target.path, detail: FileErrorText.describe(error))
    }
    let mode = mode_t(entry.mode & 0o700 | 0o600)
    let descriptor = open(target.path, O_WRONLY | O_CREAT | O_EXCL, mode)
    guard descriptor >= 0 else { throw .extract(path: target.path, detail: BackupWriter.lastSystemError()) }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  private func record<Value: Decodable>(limit: Int) throws(BackupError) -> Value {
    let length = Int(UInt32(bigEndianBytes: try take(4)))
    guard length <= limit else { throw .damaged(path: path, detail: "a record is larger than any Hearth writes") }
    let json = try take(length)
    do {
      return try PayloadRecord.decoder.decode(Value.self, from: Data(json))
    } catch {
      throw .damaged(path: path, detail: "a record is unreadable")
    }
  }

  /// The next `count` bytes of the decompressed stream.
  private func take(_ count: Int) throws(BackupError) -> [UInt8] {
    while buffer.count - offset < count {
      guard try pull() else {
        throw .damaged(path: path, detail: "it ends before its table of contents (the file was cut off)")
      }
    }
    let bytes = Array(buffer[offset..<offset + count])
    offset += count
    if offset >= 1 << 20 {
      buffer.removeFirst(offset)
      offset = 0
    }
    return bytes
  }

  /// Inflates the next piece into the buffer, reading the next frame when the last one is used up; `false` once
  /// the frames have ended and all they held was taken out.
  private func pull() throws(BackupError) -> Bool {
    while true {
      let piece: [UInt8]?
      do {
        piece = try inflater.next()
      } catch {
        throw .damaged(path: path, detail: "its compressed data is corrupt")
      }
      if let piece {
        buffer.append(contentsOf: piece)
        return true
      }
      guard !framesEnded, let frame = try frames.next() else {
        framesEnded = true
        return false
      }
      inflater.feed(frame)
    }
  }

  /// Nothing may follow the manifest.
  private func expectEnd() throws(BackupError) {
    while try pull() {}
    guard buffer.count == offset else { throw .damaged(path: path, detail: "data follows its table of contents") }
  }
}
