public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file holding a key, written so no other user ever reads it and no reader ever sees half of it: its folder is
/// made the owner's alone (0700), and the file is written whole under another name, with its permissions from
/// the start, then renamed over the old one.
public enum ProtectedFile {
  /// Writes `data` to `path` with `permissions` (0600 for a private key).
  /// - Throws: ``TLSError/cannotWrite(path:reason:)`` naming the folder or the file.
  public static func write(_ data: Data, to path: String, permissions: Int) throws(TLSError) {
    let folder = (path as NSString).deletingLastPathComponent
    let manager = FileManager.default
    do {
      try manager.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotWrite(path: folder, reason: (error as NSError).localizedDescription)
    }
    let temporary = folder + "/." + UUID().uuidString + ".tmp"
    guard manager.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: permissions]) else {
      throw .cannotWrite(path: path, reason: "the file could not be created")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw .cannotWrite(path: path, reason: reason)
    }
  }
}
