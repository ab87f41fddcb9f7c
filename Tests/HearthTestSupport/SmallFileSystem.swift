public import Foundation

/// A file system of a few megabytes (tmpfs), mounted for one test and filled on purpose: a full disk in the
/// middle of a turn, an import or a backup. Mounting needs root; tests that use it are enabled only there.
public final class SmallFileSystem: Sendable {
  /// Where it is mounted.
  public let folder: URL

  /// Whether this process may mount one.
  public static var canMount: Bool { getuid() == 0 }

  /// Mounts `megabytes` of tmpfs on a new folder.
  public init(megabytes: Int) throws {
    folder = try TestModels.temporaryDirectory().appendingPathComponent("small", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let status = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", folder.path])
    guard status == 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: folder.path]) }
  }

  deinit { _ = Self.run("/bin/umount", ["-l", folder.path]) }

  /// Writes a filler file until the disk is full but for `leaving` bytes; returns it (remove it to make room
  /// again).
  @discardableResult
  public func fill(leaving: Int = 0) throws -> URL {
    let filler = folder.appendingPathComponent("filler")
    _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    defer { try? handle.close() }
    let piece = Data(repeating: 0x5A, count: 16 * 1024)
    while (try? handle.write(contentsOf: piece)) != nil {}
    // What is left is less than a piece: fill it byte by byte.
    while (try? handle.write(contentsOf: Data([0]))) != nil {}
    if leaving > 0 {
      let size = try handle.seekToEnd()
      try handle.truncate(atOffset: size - UInt64(min(leaving, Int(size))))
    }
    return filler
  }

  /// Mounts it again read-only (`true`) or writable, as a disk that went read-only after errors would be.
  public func setReadOnly(_ readOnly: Bool) throws {
    let status = Self.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", folder.path])
    guard status == 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: folder.path]) }
  }

  private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
