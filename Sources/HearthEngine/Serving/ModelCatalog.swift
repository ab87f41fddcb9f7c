public import Foundation
import LlamaKit

/// A model file in the user's models folder, described from its GGUF header without loading it.
public struct InstalledModel: Sendable, Hashable, Codable {
  enum CodingKeys: String, CodingKey {
    case id, path, architecture, name, problem
    case fileSize = "file_size"
    case parameterCount = "parameter_count"
    case contextLength = "context_length"
    case fileType = "file_type"
    case hasChatTemplate = "has_chat_template"
  }

  /// The file name, which is how requests name the model.
  public var id: String
  public var path: String
  public var fileSize: UInt64
  public var architecture: String?
  public var name: String?
  public var parameterCount: UInt64?
  public var contextLength: Int64?
  public var fileType: String?
  public var hasChatTemplate: Bool
  /// Why the file cannot be used, when its header is not a valid GGUF header.
  public var problem: String?
}

/// The GGUF models installed in a folder.
public enum ModelCatalog {
  /// Every `.gguf` file in `folder` (links followed), by name; a damaged file is listed with its problem.
  public static func installed(in folder: URL) -> [InstalledModel] {
    fileNames(in: folder).map { name in describe(path: folder.appendingPathComponent(name).path, id: name) }
  }

  /// The names of the `.gguf` files in `folder`, sorted, without reading them.
  public static func fileNames(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.lowercased().hasSuffix(".gguf") }.sorted()
  }

  /// The model at `path`, described from its header.
  public static func describe(path: String, id: String? = nil) -> InstalledModel {
    let id = id ?? URL(fileURLWithPath: path).lastPathComponent
    do {
      let file = try GGUFReader.read(path: path)
      return InstalledModel(
        id: id, path: path, fileSize: file.fileSize, architecture: file.architecture, name: file.name,
        parameterCount: file.parameterCount, contextLength: file.contextLength, fileType: file.fileTypeName,
        hasChatTemplate: file.chatTemplate != nil, problem: nil)
    } catch {
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
      return InstalledModel(
        id: id, path: path, fileSize: size, hasChatTemplate: false, problem: "\(error)")
    }
  }
}
