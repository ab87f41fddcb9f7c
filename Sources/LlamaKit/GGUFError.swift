/// Why a file is not a usable GGUF model.
public enum GGUFError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Nothing exists at the path.
  case fileNotFound(path: String)
  /// The path names a directory.
  case isDirectory(path: String)
  /// The file could not be opened or read.
  case unreadable(path: String, reason: String)
  /// The file has no bytes.
  case emptyFile(path: String)
  /// The first four bytes are not `GGUF`.
  case notGGUF(path: String)
  /// A GGUF version this reader does not know.
  case unsupportedVersion(path: String, version: UInt32)
  /// The file ends inside the header or before the tensor data it promises.
  case truncated(path: String, detail: String)
  /// A count, length or type in the header is impossible for a file of this size.
  case malformed(path: String, detail: String)

  public var description: String {
    switch self {
    case .fileNotFound(let path): "model file not found: \(path)"
    case .isDirectory(let path): "model path is a directory, not a GGUF file: \(path)"
    case .unreadable(let path, let reason): "cannot read model file \(path): \(reason)"
    case .emptyFile(let path): "model file is empty: \(path)"
    case .notGGUF(let path): "not a GGUF model file (bad magic): \(path)"
    case .unsupportedVersion(let path, let version): "unsupported GGUF version \(version) in \(path)"
    case .truncated(let path, let detail): "GGUF file is truncated (\(detail)): \(path)"
    case .malformed(let path, let detail): "GGUF header is corrupt (\(detail)): \(path)"
    }
  }
}
