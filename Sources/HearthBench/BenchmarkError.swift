/// Why a benchmark could not be completed.
public enum BenchmarkError: Error, Sendable, CustomStringConvertible {
  /// A llama.cpp tool needed for the comparison is not installed.
  case toolMissing(name: String, searched: [String])
  /// A tool ran but failed.
  case toolFailed(tool: String, reason: String)
  /// A tool's output could not be understood.
  case unreadableOutput(tool: String, detail: String)
  /// Hearth's own measurement failed.
  case measurementFailed(String)

  public var description: String {
    switch self {
    case .toolMissing(let name, let searched):
      "\(name) not found (looked in \(searched.joined(separator: ", "))); run `make build` or set HEARTH_LLAMA_PREFIX"
    case .toolFailed(let tool, let reason): "\(tool) failed: \(reason)"
    case .unreadableOutput(let tool, let detail): "could not read the output of \(tool): \(detail)"
    case .measurementFailed(let reason): "measurement failed: \(reason)"
    }
  }
}
