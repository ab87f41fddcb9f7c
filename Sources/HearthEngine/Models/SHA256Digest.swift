import Crypto
public import Foundation

/// SHA-256 of files and streams, in lowercase hex as checksums are published.
public struct SHA256Digest: Sendable {
  private var hasher = SHA256()

  /// A digest with nothing fed yet.
  public init() {}

  /// Feeds `bytes`.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    hasher.update(bufferPointer: bytes)
  }

  /// Feeds `data`.
  public mutating func update(_ data: Data) {
    hasher.update(data: data)
  }

  /// The digest of everything fed, in lowercase hex.
  public func hex() -> String {
    hasher.finalize().map { String(format: "%02x", $0) }.joined()
  }

  /// The SHA-256 of the first `length` bytes of the file at `path` (all of it when `nil`), read in 1 MiB
  /// pieces; `progress` hears the bytes read so far.
  public static func ofFile(
    _ path: String, length: UInt64? = nil, progress: (UInt64) -> Void = { _ in }
  ) throws -> SHA256Digest {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var digest = SHA256Digest()
    var read: UInt64 = 0
    while length.map({ read < $0 }) ?? true {
      let want = min(1 << 20, Int(clamping: (length ?? .max) - read))
      guard let chunk = try handle.read(upToCount: want), !chunk.isEmpty else { break }
      digest.update(chunk)
      read += UInt64(chunk.count)
      progress(read)
    }
    return digest
  }

  /// Whether `text` is 64 hexadecimal digits.
  public static func isValidHex(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "0123456789abcdefABCDEF").contains($0) }
  }
}

/// A file's size and modification time, links followed (the models folder may hold links to the files).
struct FileFacts: Equatable {
  var size: UInt64
  var modified: Double

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    size = UInt64(info.st_size)
    modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }
}
