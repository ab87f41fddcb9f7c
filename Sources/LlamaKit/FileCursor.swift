import Foundation

/// Sequential reads from a file through a small buffer, never past the file's end.
struct FileCursor {
  let path: String
  let fileSize: UInt64
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var bufferStart: UInt64 = 0
  private(set) var position: UInt64 = 0
  private static let chunkSize = 1 << 20

  init(path: String, handle: FileHandle, fileSize: UInt64) {
    self.path = path
    self.handle = handle
    self.fileSize = fileSize
  }

  /// Bytes left between the position and the end of the file.
  var remaining: UInt64 { fileSize - position }

  /// Returns the next `count` bytes and advances past them.
  mutating func read(_ count: Int, what: @autoclosure () -> String) throws(GGUFError) -> ArraySlice<UInt8> {
    guard UInt64(count) <= remaining else {
      throw .truncated(path: path, detail: "the file ends while reading \(what()) at byte \(position)")
    }
    let offsetInBuffer = Int(position - bufferStart)
    if position < bufferStart || offsetInBuffer + count > buffer.count {
      try refill(atLeast: count)
    }
    let start = Int(position - bufferStart)
    position += UInt64(count)
    return buffer[start..<start + count]
  }

  /// Advances `count` bytes without reading them.
  mutating func skip(_ count: UInt64, what: @autoclosure () -> String) throws(GGUFError) {
    guard count <= remaining else {
      throw .truncated(path: path, detail: "the file ends while reading \(what()) at byte \(position)")
    }
    position += count
  }

  mutating func readInteger<T: FixedWidthInteger>(
    _: T.Type, what: @autoclosure () -> String
  ) throws(GGUFError)
    -> T
  {
    let bytes = try read(MemoryLayout<T>.size, what: what())
    var value: T = 0
    for (index, byte) in bytes.enumerated() {
      value |= T(truncatingIfNeeded: byte) << (8 * index)
    }
    return value
  }

  private mutating func refill(atLeast count: Int) throws(GGUFError) {
    let wanted = max(count, Self.chunkSize)
    do {
      try handle.seek(toOffset: position)
      let data = try handle.read(upToCount: wanted) ?? Data()
      buffer = [UInt8](data)
      bufferStart = position
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
    guard buffer.count >= count else {
      throw .truncated(path: path, detail: "the file changed size while reading at byte \(position)")
    }
  }
}
