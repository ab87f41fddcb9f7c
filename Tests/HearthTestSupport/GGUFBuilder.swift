public import Foundation

/// Writes GGUF files byte by byte, including deliberately broken ones, for tests of the header reader.
public struct GGUFBuilder {
  public var bytes: [UInt8] = []

  public init() {}

  public mutating func raw(_ values: [UInt8]) { bytes += values }
  public mutating func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
  public mutating func u64(_ value: UInt64) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
  public mutating func string(_ value: String) {
    u64(UInt64(value.utf8.count))
    bytes += Array(value.utf8)
  }

  /// Magic, version and counts.
  public mutating func header(version: UInt32 = 3, tensors: UInt64, keyValues: UInt64) {
    raw(Array("GGUF".utf8))
    u32(version)
    u64(tensors)
    u64(keyValues)
  }

  public mutating func keyString(_ key: String, _ value: String) {
    string(key)
    u32(8)
    string(value)
  }

  public mutating func keyU32(_ key: String, _ value: UInt32) {
    string(key)
    u32(4)
    u32(value)
  }

  /// A tensor description (name, dimensions, ggml type, offset).
  public mutating func tensor(_ name: String, dimensions: [UInt64], type: UInt32 = 0, offset: UInt64) {
    string(name)
    u32(UInt32(dimensions.count))
    dimensions.forEach { u64($0) }
    u32(type)
    u64(offset)
  }

  /// Pads to `alignment` and appends `count` data bytes.
  public mutating func data(count: Int, alignment: Int = 32) {
    while bytes.count % alignment != 0 { bytes.append(0) }
    bytes += [UInt8](repeating: 0, count: count)
  }

  /// A small well-formed file: one f32 tensor of 8 elements and a few metadata keys.
  public static func valid(architecture: String = "llama") -> GGUFBuilder {
    var builder = GGUFBuilder()
    builder.header(tensors: 1, keyValues: 3)
    builder.keyString("general.architecture", architecture)
    builder.keyString("general.name", "tiny")
    builder.keyU32("\(architecture).context_length", 128)
    builder.tensor("weights", dimensions: [8], offset: 0)
    builder.data(count: 32)
    return builder
  }

  /// A valid GGUF file of about `megabytes` MB: one f32 tensor, so its header reads and its hash is its own.
  public static func modelBytes(megabytes: Int, seed: UInt8 = 1) -> Data {
    var builder = GGUFBuilder()
    let elements = megabytes * 250_000
    builder.header(tensors: 1, keyValues: 2)
    builder.keyString("general.architecture", "llama")
    builder.keyString("general.name", "download test \(seed)")
    builder.tensor("weights", dimensions: [UInt64(elements)], offset: 0)
    builder.data(count: 0)
    var data = Data(builder.bytes)
    data.append(Data((0..<(elements * 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }))
    return data
  }

  /// Writes the bytes to a new temporary file and returns its path.
  public func write(named name: String = "model.gguf") throws -> String {
    let url = try TestModels.temporaryDirectory().appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }
}
