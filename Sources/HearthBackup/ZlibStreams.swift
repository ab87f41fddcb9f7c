import CompressNIO
import NIOCore

/// zlib's deflate over a stream given in pieces; what it makes goes to `emit` in pieces of any size.
final class Deflater {
  private let compressor: ZlibCompressor
  private var output = ByteBufferAllocator().buffer(capacity: 256 * 1024)
  private var empty = ByteBufferAllocator().buffer(capacity: 16)

  init() throws {
    compressor = try ZlibCompressor(algorithm: .zlib, configuration: .init(compressionLevel: .compressionLevel6))
  }

  /// Compresses `bytes`, handing on whatever output is ready.
  func add(_ bytes: UnsafeRawBufferPointer, emit: ([UInt8]) throws -> Void) throws {
    guard !bytes.isEmpty else { return }
    var input = ByteBufferAllocator().buffer(capacity: bytes.count)
    input.writeBytes(bytes)
    while input.readableBytes > 0 {
      output.reserveCapacity(minimumWritableBytes: 64 * 1024)
      try compressor.deflate(from: &input, to: &output, flush: .no)
      try drain(emit)
    }
  }

  /// Ends the stream, handing on the rest.
  func finish(emit: ([UInt8]) throws -> Void) throws {
    while true {
      output.reserveCapacity(minimumWritableBytes: 64 * 1024)
      do {
        try compressor.deflate(from: &empty, to: &output, flush: .finish)
        try drain(emit)
        return
      } catch let error as CompressNIOError where error == .bufferOverflow {
        try drain(emit)
      }
    }
  }

  private func drain(_ emit: ([UInt8]) throws -> Void) throws {
    guard output.readableBytes > 0 else { return }
    let bytes = output.readBytes(length: output.readableBytes) ?? []
    output.clear()
    try emit(bytes)
  }
}

/// zlib's inflate over pieces of a compressed stream; refuses bytes after the stream's end.
final class Inflater {
  private let decompressor: ZlibDecompressor
  private var output = ByteBufferAllocator().buffer(capacity: 256 * 1024)

  init() throws {
    decompressor = try ZlibDecompressor(algorithm: .zlib)
  }

  /// Inflates `bytes`, handing on what they hold.
  func add(_ bytes: [UInt8], emit: ([UInt8]) throws -> Void) throws {
    var input = ByteBufferAllocator().buffer(capacity: max(bytes.count, 1))
    input.writeBytes(bytes)
    while input.readableBytes > 0 {
      output.reserveCapacity(minimumWritableBytes: 256 * 1024)
      let before = (input.readableBytes, output.readableBytes)
      do {
        try decompressor.inflate(from: &input, to: &output)
      } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
        // Full output, or all input taken: both are progress, not failure.
      }
      let progressed = input.readableBytes != before.0 || output.readableBytes != before.1
      if output.readableBytes > 0 {
        let piece = output.readBytes(length: output.readableBytes) ?? []
        output.clear()
        try emit(piece)
      }
      guard progressed else { throw InflateError.trailingBytes }
    }
  }

  enum InflateError: Error { case trailingBytes }
}
