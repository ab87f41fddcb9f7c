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
      let size = FileFacts(path: path)?.size ?? 0
      return InstalledModel(
        id: id, path: path, fileSize: size, hasChatTemplate: false, problem: "\(error)")
    }
  }
}

/// Everything a GGUF file's header says, read without loading the weights (`hearth models info`).
public struct ModelFileReport: Sendable, Hashable, Encodable {
  public var path: String
  public var fileSize: UInt64
  public var ggufVersion: UInt32
  public var architecture: String?
  public var name: String?
  public var parameterCount: UInt64
  public var fileType: String?
  public var contextLength: Int64?
  public var embeddingLength: Int64?
  public var blockCount: Int64?
  public var headCount: Int64?
  public var tokenizer: String?
  public var vocabularySize: UInt64?
  public var hasChatTemplate: Bool
  /// Size of the chat template in bytes, 0 when there is none.
  public var chatTemplateBytes: Int
  public var tensorCount: Int
  /// Every metadata key with a short rendering of its value (arrays summarised).
  public var metadata: [String: String]
}

extension ModelCatalog {
  /// Checks the GGUF header at `path` and reports what it says.
  /// - Throws: a typed error naming what is wrong with the file.
  public static func inspect(path: String) throws -> ModelFileReport {
    let file = try GGUFReader.read(path: path)
    return ModelFileReport(
      path: file.path, fileSize: file.fileSize, ggufVersion: file.version, architecture: file.architecture,
      name: file.name, parameterCount: file.parameterCount, fileType: file.fileTypeName,
      contextLength: file.contextLength, embeddingLength: file.embeddingLength, blockCount: file.blockCount,
      headCount: file.headCount, tokenizer: file.tokenizerModel, vocabularySize: file.vocabularySize,
      hasChatTemplate: file.chatTemplate != nil, chatTemplateBytes: file.chatTemplate?.utf8.count ?? 0,
      tensorCount: file.tensors.count,
      metadata: Dictionary(file.metadataEntries.map { ($0.0, $0.1.summary) }, uniquingKeysWith: { a, _ in a }))
  }
}
