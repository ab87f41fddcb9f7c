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

/// zlib's inflate over pieces of a compressed stream, taken out a piece at a time: however much a few bytes
/// inflate to (zlib's ratio reaches a thousand to one), no more than a piece is held in memory. Refuses bytes
/// after the stream's end.
final class Inflater {
  /// The most one piece holds.
  static let pieceSize = 256 * 1024
  private let decompressor: ZlibDecompressor
  private var input = ByteBufferAllocator().buffer(capacity: 16)
  private var output = ByteBufferAllocator().buffer(capacity: pieceSize)

  init() throws {
    decompressor = try ZlibDecompressor(algorithm: .zlib)
  }

  /// Hands in the next compressed bytes; what the ones before held must all have been taken out (``next()``
  /// returned `nil`).
  func feed(_ bytes: [UInt8]) {
    input.discardReadBytes()
    input.writeBytes(bytes)
  }

  /// The next piece of what the bytes fed so far hold; `nil` once all of it has been taken out.
  /// - Throws: zlib's error for corrupt data, ``InflateError/trailingBytes`` for bytes after the stream's end.
  func next() throws -> [UInt8]? {
    while true {
      output.clear()
      let before = input.readableBytes
      do {
        // Called even with no input left: zlib may hold output that did not fit the last piece.
        try decompressor.inflate(from: &input, to: &output)
      } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
        // The piece is full, or all input is taken: both are progress, not failure.
      }
      if output.readableBytes > 0 { return output.readBytes(length: output.readableBytes) }
      if input.readableBytes == 0 { return nil }
      guard input.readableBytes != before else { throw InflateError.trailingBytes }
    }
  }

  enum InflateError: Error { case trailingBytes }
}
