public import Foundation
public import HearthCore

/// Why the profile's lock could not be taken.
public enum ProfileLockError: Error, Sendable, CustomStringConvertible, CategorizedError {
  /// The lock file could not be opened or made: `cause` is the system's word for it (`Read-only file system`,
  /// `Permission denied`, `No space left on device`).
  case cannotOpen(path: String, cause: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let cause):
      "cannot open the profile's lock file \(path): \(cause); nothing was changed"
    }
  }

  public var category: ErrorCategory { ErrorCategory(.unavailable, code: "profile_unavailable") }
}

/// An advisory lock on the profile, held for as long as a process may write answers into the database.
///
/// Every such process holds it shared. Start-up repair (marking answers left "generating" as interrupted)
/// is only safe when no other live process is generating, so it runs only if the lock can be taken
/// exclusively first. The system releases the lock when a process dies, even by `kill -9`.
public final class ProfileLock: Sendable {
  private let descriptor: Int32

  /// Opens (creating) the lock file and takes the lock shared.
  /// - Parameter repair: called while the lock is held exclusively, i.e. only when no other process holds it.
  public init(path: URL, repairIfAlone repair: () throws -> Void) throws {
    try FileManager.default.createDirectory(
      at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    descriptor = open(path.path, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0 else {
      throw ProfileLockError.cannotOpen(path: path.path, cause: String(cString: strerror(errno)))
    }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
      do {
        try repair()
      } catch {
        close(descriptor)
        throw error
      }
    }
    // Converting (or taking) the shared lock waits only while another process repairs.
    flock(descriptor, LOCK_SH)
  }

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Takes the lock exclusively without waiting, for work no other process may see half done (a restore):
  /// `nil` when a running Hearth (`hearth serve`, a chat) holds it.
  public static func exclusive(path: URL) throws -> ProfileLock? {
    try FileManager.default.createDirectory(
      at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    let descriptor = open(path.path, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0 else {
      throw ProfileLockError.cannotOpen(path: path.path, cause: String(cString: strerror(errno)))
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      return nil
    }
    return ProfileLock(descriptor: descriptor)
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
