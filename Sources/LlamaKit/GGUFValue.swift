/// A metadata value stored in a GGUF file header.
public enum GGUFValue: Sendable, Hashable {
  case uint8(UInt8)
  case int8(Int8)
  case uint16(UInt16)
  case int16(Int16)
  case uint32(UInt32)
  case int32(Int32)
  case uint64(UInt64)
  case int64(Int64)
  case float32(Float)
  case float64(Double)
  case bool(Bool)
  case string(String)
  /// An array; long arrays keep only their element type and count (see ``GGUFReader/arrayElementLimit``).
  case array(GGUFArray)

  /// The value as a string, when it is one.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The value as an integer, when it is any integer type.
  public var integer: Int64? {
    switch self {
    case .uint8(let v): Int64(v)
    case .int8(let v): Int64(v)
    case .uint16(let v): Int64(v)
    case .int16(let v): Int64(v)
    case .uint32(let v): Int64(v)
    case .int32(let v): Int64(v)
    case .uint64(let v): Int64(exactly: v)
    case .int64(let v): v
    default: nil
    }
  }

  /// A short human-readable rendering.
  public var summary: String {
    switch self {
    case .uint8(let v): "\(v)"
    case .int8(let v): "\(v)"
    case .uint16(let v): "\(v)"
    case .int16(let v): "\(v)"
    case .uint32(let v): "\(v)"
    case .int32(let v): "\(v)"
    case .uint64(let v): "\(v)"
    case .int64(let v): "\(v)"
    case .float32(let v): "\(v)"
    case .float64(let v): "\(v)"
    case .bool(let v): "\(v)"
    case .string(let v): v.count > 80 ? "\(v.prefix(77))… (\(v.utf8.count) bytes)" : v
    case .array(let a): "[\(a.elementType) × \(a.count)]"
    }
  }
}

/// A metadata array: its element type, length and, for short arrays, the elements.
public struct GGUFArray: Sendable, Hashable {
  /// The element type's name as GGUF spells it (`uint32`, `string`, …).
  public var elementType: String
  /// How many elements the array has.
  public var count: UInt64
  /// The elements, kept only for arrays no longer than the reader's limit.
  public var elements: [GGUFValue]?
}

/// One tensor described in a GGUF header.
public struct GGUFTensorInfo: Sendable, Hashable {
  /// Tensor name.
  public var name: String
  /// Size of each dimension.
  public var dimensions: [UInt64]
  /// ggml type id.
  public var type: UInt32
  /// Offset of the data from the start of the data section.
  public var offset: UInt64
  /// Number of elements.
  public var elementCount: UInt64
  /// Bytes of data.
  public var byteCount: UInt64
}
