public import Foundation
import HearthEngine

/// Finds llama.cpp's own programs, built by the set-up next to the library Hearth links.
public struct LlamaTools: Sendable {
  /// Folders searched, in order.
  public var searchPath: [String]

  /// Looks in `$HEARTH_LLAMA_PREFIX/bin`, the default cache prefix, then `$PATH`.
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    var folders: [String] = []
    if let prefix = environment["HEARTH_LLAMA_PREFIX"], !prefix.isEmpty { folders.append("\(prefix)/bin") }
    folders.append(
      HearthPaths.cacheFolder(environment: environment).appendingPathComponent("llama.cpp-0.3.36/bin").path)
    folders += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    searchPath = folders
  }

  /// The full path of `name`.
  public func locate(_ name: String) throws(BenchmarkError) -> String {
    for folder in searchPath {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw .toolMissing(name: name, searched: Array(searchPath.prefix(2)))
  }
}
