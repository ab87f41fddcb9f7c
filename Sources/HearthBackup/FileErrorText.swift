import Foundation

/// A file operation's failure in the system's own words (`No space left on device`, `Read-only file system`),
/// which is what a user searches for and what tells a full disk from a missing folder; Foundation's wording
/// ("There isn't enough space") is used only when no system error lies under it.
public enum FileErrorText {
  public static func describe(_ error: any Error) -> String {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if error.domain == NSCocoaErrorDomain {
      switch CocoaError.Code(rawValue: error.code) {
      case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
      case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
      case .fileWriteNoPermission, .fileReadNoPermission: return String(cString: strerror(EACCES))
      case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
      default: break
      }
    }
    return error.localizedDescription
  }
}
