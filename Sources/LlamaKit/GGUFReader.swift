internal import CLlama
import Foundation
import Synchronization

/// Reads and checks the header of a GGUF file without trusting anything in it: every count and length is
/// checked against the bytes that remain, so a corrupt or hostile file is reported, never loaded.
public enum GGUFReader {
  /// Arrays longer than this keep only their type and count.
  public static let arrayElementLimit = 64
  private static let magic: [UInt8] = Array("GGUF".utf8)
  private static let supportedVersions: ClosedRange<UInt32> = 2...3
  private static let maxKeyLength: UInt64 = 65_535
  private static let maxDimensions: UInt32 = 4
  private static let defaultAlignment: UInt64 = 32
  // Smallest encodings, used to reject counts that could not fit in the file.
  private static let minimumKeyValueBytes: UInt64 = 8 + 1 + 4 + 1
  private static let minimumTensorInfoBytes: UInt64 = 8 + 1 + 4 + 8 + 4 + 8

  /// Headers already read, by path, with the file's identity when they were: a model's header (a vocabulary of
  /// 262,144 tokens for Gemma 3) is read by several checks in a row, and reading it once is enough until the
  /// file changes.
  private static let cache = Mutex<[String: (identity: FileIdentity, file: GGUFFile)]>([:])
  private static let cacheLimit = 16

  /// Reads the header of the file at `path` and checks that the tensor data it describes is present; the
  /// same file unchanged since (same device, inode, size and modification time) is not read twice.
  /// - Throws: ``GGUFError`` naming what is wrong.
  public static func read(path: String) throws(GGUFError) -> GGUFFile {
    let identity = FileIdentity(path: path)
    if let identity, let cached = cache.withLock({ $0[path] }), cached.identity == identity { return cached.file }
    let file = try readUncached(path: path)
    if let identity {
      cache.withLock { cache in
        if cache.count >= cacheLimit { cache.removeAll() }
        cache[path] = (identity, file)
      }
    }
    return file
  }

  private static func readUncached(path: String) throws(GGUFError) -> GGUFFile {
    let (handle, size) = try open(path)
    defer { try? handle.close() }
    var cursor = FileCursor(path: path, handle: handle, fileSize: size)

    guard size >= 4, Array(try cursor.read(4, what: "the magic")) == magic else {
      throw .notGGUF(path: path)
    }
    let version = try cursor.readInteger(UInt32.self, what: "the version")
    guard supportedVersions.contains(version) else {
      throw .unsupportedVersion(path: path, version: version)
    }
    let tensorCount = try cursor.readInteger(UInt64.self, what: "the tensor count")
    let keyValueCount = try cursor.readInteger(UInt64.self, what: "the metadata count")
    try requireFit(keyValueCount, of: minimumKeyValueBytes, "metadata entries", &cursor)

    var metadata: [(String, GGUFValue)] = []
    var seenKeys = Set<String>()
    for index in 0..<keyValueCount {
      let key = try readString(&cursor, limit: maxKeyLength, what: "metadata key \(index)")
      guard seenKeys.insert(key).inserted else {
        throw .malformed(path: path, detail: "duplicate metadata key '\(key)'")
      }
      let type = try cursor.readInteger(UInt32.self, what: "the type of '\(key)'")
      metadata.append((key, try readValue(type: type, &cursor, key: key, depth: 0)))
    }
    try requireFit(tensorCount, of: minimumTensorInfoBytes, "tensor descriptions", &cursor)

    var tensors: [GGUFTensorInfo] = []
    tensors.reserveCapacity(Int(tensorCount))
    for index in 0..<tensorCount {
      tensors.append(try readTensorInfo(&cursor, index: index))
    }
    let alignment = try alignment(from: metadata, path: path)
    let dataOffset = (cursor.position + alignment - 1) / alignment * alignment
    try checkTensorData(tensors, dataOffset: dataOffset, alignment: alignment, fileSize: size, path: path)
    return GGUFFile(
      path: path, version: version, fileSize: size, metadataEntries: metadata, tensors: tensors,
      alignment: alignment, dataOffset: dataOffset)
  }

  private static func open(_ path: String) throws(GGUFError) -> (FileHandle, UInt64) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    guard !isDirectory.boolValue else { throw .isDirectory(path: path) }
    let handle: FileHandle
    let size: UInt64
    do {
      handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      size = try handle.seekToEnd()
    } catch {
      throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
    }
    guard size > 0 else {
      try? handle.close()
      throw .emptyFile(path: path)
    }
    return (handle, size)
  }

  private static func requireFit(
    _ count: UInt64, of minimumSize: UInt64, _ what: String, _ cursor: inout FileCursor
  ) throws(GGUFError) {
    let (needed, overflow) = count.multipliedReportingOverflow(by: minimumSize)
    guard !overflow, needed <= cursor.remaining else {
      throw .malformed(
        path: cursor.path, detail: "\(count) \(what) cannot fit in the \(cursor.remaining) bytes that follow")
    }
  }

  private static func readString(
    _ cursor: inout FileCursor, limit: UInt64, what: String
  ) throws(GGUFError)
    -> String
  {
    let length = try cursor.readInteger(UInt64.self, what: "the length of \(what)")
    guard length <= limit else {
      throw .malformed(path: cursor.path, detail: "\(what) claims \(length) bytes, more than \(limit)")
    }
    guard length <= cursor.remaining else {
      throw .malformed(
        path: cursor.path, detail: "\(what) claims \(length) bytes but only \(cursor.remaining) remain")
    }
    return String(decoding: try cursor.read(Int(length), what: what), as: UTF8.self)
  }

  private static func readValue(
    type: UInt32, _ cursor: inout FileCursor, key: String, depth: Int
  )
    throws(GGUFError) -> GGUFValue
  {
    let what = "the value of '\(key)'"
    switch type {
    case 0: return .uint8(try cursor.readInteger(UInt8.self, what: what))
    case 1: return .int8(try cursor.readInteger(Int8.self, what: what))
    case 2: return .uint16(try cursor.readInteger(UInt16.self, what: what))
    case 3: return .int16(try cursor.readInteger(Int16.self, what: what))
    case 4: return .uint32(try cursor.readInteger(UInt32.self, what: what))
    case 5: return .int32(try cursor.readInteger(Int32.self, what: what))
    case 6: return .float32(Float(bitPattern: try cursor.readInteger(UInt32.self, what: what)))
    case 7:
      let byte = try cursor.readInteger(UInt8.self, what: what)
      guard byte <= 1 else { throw .malformed(path: cursor.path, detail: "'\(key)' has boolean value \(byte)") }
      return .bool(byte == 1)
    case 8: return .string(try readString(&cursor, limit: cursor.remaining, what: what))
    case 9: return .array(try readArray(&cursor, key: key, depth: depth))
    case 10: return .uint64(try cursor.readInteger(UInt64.self, what: what))
    case 11: return .int64(try cursor.readInteger(Int64.self, what: what))
    case 12: return .float64(Double(bitPattern: try cursor.readInteger(UInt64.self, what: what)))
    default: throw .malformed(path: cursor.path, detail: "'\(key)' has unknown value type \(type)")
    }
  }

  private static func readArray(
    _ cursor: inout FileCursor, key: String, depth: Int
  ) throws(GGUFError)
    -> GGUFArray
  {
    guard depth == 0 else { throw .malformed(path: cursor.path, detail: "'\(key)' nests arrays") }
    let elementType = try cursor.readInteger(UInt32.self, what: "the element type of '\(key)'")
    let count = try cursor.readInteger(UInt64.self, what: "the length of '\(key)'")
    guard let name = typeNames[elementType], let minimum = minimumSizes[elementType] else {
      throw .malformed(path: cursor.path, detail: "'\(key)' has unknown element type \(elementType)")
    }
    try requireFit(count, of: minimum, "elements of '\(key)'", &cursor)
    if let fixed = fixedSizes[elementType], count > UInt64(arrayElementLimit) {
      try cursor.skip(count * fixed, what: "the elements of '\(key)'")
      return GGUFArray(elementType: name, count: count, elements: nil)
    }
    var elements: [GGUFValue] = []
    let keep = count <= UInt64(arrayElementLimit)
    for _ in 0..<count {
      let value = try readValue(type: elementType, &cursor, key: key, depth: depth + 1)
      if keep { elements.append(value) }
    }
    return GGUFArray(elementType: name, count: count, elements: keep ? elements : nil)
  }

  private static func readTensorInfo(
    _ cursor: inout FileCursor, index: UInt64
  ) throws(GGUFError)
    -> GGUFTensorInfo
  {
    let name = try readString(&cursor, limit: maxKeyLength, what: "the name of tensor \(index)")
    let dimensionCount = try cursor.readInteger(UInt32.self, what: "the dimensions of '\(name)'")
    guard (1...maxDimensions).contains(dimensionCount) else {
      throw .malformed(path: cursor.path, detail: "tensor '\(name)' has \(dimensionCount) dimensions")
    }
    var dimensions: [UInt64] = []
    var elements: UInt64 = 1
    for _ in 0..<dimensionCount {
      let size = try cursor.readInteger(UInt64.self, what: "a dimension of '\(name)'")
      let (product, overflow) = elements.multipliedReportingOverflow(by: size)
      guard !overflow, size <= UInt64(Int64.max) else {
        throw .malformed(path: cursor.path, detail: "tensor '\(name)' has an impossible shape")
      }
      dimensions.append(size)
      elements = product
    }
    let type = try cursor.readInteger(UInt32.self, what: "the type of '\(name)'")
    let offset = try cursor.readInteger(UInt64.self, what: "the offset of '\(name)'")
    let bytes = try byteCount(type: type, dimensions: dimensions, name: name, path: cursor.path)
    return GGUFTensorInfo(
      name: name, dimensions: dimensions, type: type, offset: offset, elementCount: elements, byteCount: bytes)
  }

  private static func byteCount(
    type: UInt32, dimensions: [UInt64], name: String, path: String
  )
    throws(GGUFError) -> UInt64
  {
    guard type < GGML_TYPE_COUNT.rawValue else {
      throw .malformed(path: path, detail: "tensor '\(name)' has unknown type \(type)")
    }
    let ggmlType = ggml_type(rawValue: type)
    let blockSize = UInt64(max(0, ggml_blck_size(ggmlType)))
    let typeSize = UInt64(ggml_type_size(ggmlType))
    guard blockSize > 0, typeSize > 0 else {
      throw .malformed(path: path, detail: "tensor '\(name)' uses retired type \(type)")
    }
    guard dimensions[0] % blockSize == 0 else {
      throw .malformed(path: path, detail: "tensor '\(name)' row is not a whole number of blocks")
    }
    var bytes = dimensions[0] / blockSize
    for size in [typeSize] + dimensions.dropFirst() {
      let (product, overflow) = bytes.multipliedReportingOverflow(by: size)
      guard !overflow else { throw .malformed(path: path, detail: "tensor '\(name)' is impossibly large") }
      bytes = product
    }
    return bytes
  }

  private static func alignment(
    from metadata: [(String, GGUFValue)], path: String
  ) throws(GGUFError)
    -> UInt64
  {
    guard let value = metadata.first(where: { $0.0 == "general.alignment" })?.1 else { return defaultAlignment }
    guard case .uint32(let alignment) = value, alignment > 0, alignment & (alignment - 1) == 0 else {
      throw .malformed(path: path, detail: "general.alignment must be a power of two, got \(value.summary)")
    }
    return UInt64(alignment)
  }

  private static func checkTensorData(
    _ tensors: [GGUFTensorInfo], dataOffset: UInt64, alignment: UInt64, fileSize: UInt64, path: String
  ) throws(GGUFError) {
    for tensor in tensors {
      guard tensor.offset % alignment == 0 else {
        throw .malformed(path: path, detail: "tensor '\(tensor.name)' data is not aligned")
      }
      let (start, overflowStart) = dataOffset.addingReportingOverflow(tensor.offset)
      let (end, overflowEnd) = start.addingReportingOverflow(tensor.byteCount)
      guard !overflowStart, !overflowEnd else {
        throw .malformed(path: path, detail: "tensor '\(tensor.name)' lies beyond any possible file")
      }
      guard end <= fileSize else {
        throw .truncated(
          path: path, detail: "tensor '\(tensor.name)' ends at byte \(end) but the file has \(fileSize)")
      }
    }
  }

  private static let typeNames: [UInt32: String] = [
    0: "uint8", 1: "int8", 2: "uint16", 3: "int16", 4: "uint32", 5: "int32", 6: "float32", 7: "bool",
    8: "string", 9: "array", 10: "uint64", 11: "int64", 12: "float64",
  ]
  private static let fixedSizes: [UInt32: UInt64] = [
    0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8,
  ]
  private static let minimumSizes: [UInt32: UInt64] = fixedSizes.merging([8: 8, 9: 12]) { a, _ in a }
}

/// What tells one version of a file from another: where it lives and when and how it last changed. Links are
/// followed.
struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modifiedSeconds: Int
  var modifiedNanoseconds: Int

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
    modifiedSeconds = Int(info.st_mtimespec.tv_sec)
    modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
    #else
    modifiedSeconds = Int(info.st_mtim.tv_sec)
    modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    #endif
  }
}
