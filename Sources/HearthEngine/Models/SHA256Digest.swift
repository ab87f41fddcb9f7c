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
///
/// Read through FileManager rather than `stat`: under MemberImportVisibility, `stat`'s fields belong to whichever
/// module first included <sys/stat.h> (Glibc, CoreFoundation or CDispatch, depending on the build), and a fresh
/// release build failed on them.
struct FileFacts: Equatable {
  var size: UInt64
  /// Seconds since 1970.
  var modified: Double

  init?(path: String) {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: target)
    } catch {
      return nil  // missing or unreadable: the callers' answer is "no such file"
    }
    guard let size = (attributes[.size] as? NSNumber)?.uint64Value,
      let modified = attributes[.modificationDate] as? Date
    else { return nil }
    self.size = size
    self.modified = modified.timeIntervalSince1970
  }

  /// Whether `recorded` (a stamp written earlier) is this file's modification time. Within a microsecond:
  /// the time makes a round trip through `Date`, whose last bit may differ from a value read by `stat` before.
  func wasModified(at recorded: Double) -> Bool { abs(recorded - modified) < 1e-6 }
}
