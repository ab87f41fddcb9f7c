import ArgumentParser
import Foundation
import HearthCore
import LlamaKit

struct ModelsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "models",
    abstract: "Inspect model files.",
    subcommands: [Info.self]
  )

  struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check a GGUF file's header and print what it says, without loading the weights.")

    @Argument(help: "Path of a GGUF file.")
    var path: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
      try await reportingFailures {
        let file = try GGUFReader.read(path: path)
        Terminal.write(json ? try JSONOutput.encode(ModelInfoReport(file)) + "\n" : Self.text(file))
      }
    }

    private static func text(_ file: GGUFFile) -> String {
      func row(_ label: String, _ value: String?) -> String {
        "\(label.padding(toLength: 18, withPad: " ", startingAt: 0))\(value ?? "-")\n"
      }
      let template = file.chatTemplate.map { "yes (\($0.utf8.count) bytes)" } ?? "none"
      return row("file", file.path)
        + row("size", byteCount(file.fileSize))
        + row("gguf version", "\(file.version)")
        + row("architecture", file.architecture)
        + row("name", file.name)
        + row("parameters", parameterCount(file.parameterCount))
        + row("file type", file.fileTypeName)
        + row("context length", file.contextLength.map { "\($0)" })
        + row("embedding length", file.embeddingLength.map { "\($0)" })
        + row("layers", file.blockCount.map { "\($0)" })
        + row("attention heads", file.headCount.map { "\($0)" })
        + row("tokenizer", file.tokenizerModel)
        + row("vocabulary", file.vocabularySize.map { "\($0)" })
        + row("chat template", template)
        + row("tensors", "\(file.tensors.count)")
        + row("metadata keys", "\(file.metadataEntries.count)")
    }
  }
}

func byteCount(_ bytes: UInt64) -> String {
  let units = ["B", "KiB", "MiB", "GiB", "TiB"]
  var value = Double(bytes)
  var unit = 0
  while value >= 1024, unit < units.count - 1 {
    value /= 1024
    unit += 1
  }
  return unit == 0 ? "\(bytes) B" : "\(String(format: "%.1f", value)) \(units[unit]) (\(bytes) bytes)"
}

func parameterCount(_ count: UInt64) -> String {
  switch count {
  case 1_000_000_000...: String(format: "%.2fB", Double(count) / 1e9)
  case 1_000_000...: String(format: "%.1fM", Double(count) / 1e6)
  default: "\(count)"
  }
}

/// The `--json` output of `hearth models info`.
struct ModelInfoReport: Encodable {
  var path: String
  var fileSize: UInt64
  var ggufVersion: UInt32
  var architecture: String?
  var name: String?
  var parameterCount: UInt64
  var fileType: String?
  var contextLength: Int64?
  var embeddingLength: Int64?
  var blockCount: Int64?
  var headCount: Int64?
  var tokenizer: String?
  var vocabularySize: UInt64?
  var hasChatTemplate: Bool
  var tensorCount: Int
  var metadata: [String: String]

  init(_ file: GGUFFile) {
    path = file.path
    fileSize = file.fileSize
    ggufVersion = file.version
    architecture = file.architecture
    name = file.name
    parameterCount = file.parameterCount
    fileType = file.fileTypeName
    contextLength = file.contextLength
    embeddingLength = file.embeddingLength
    blockCount = file.blockCount
    headCount = file.headCount
    tokenizer = file.tokenizerModel
    vocabularySize = file.vocabularySize
    hasChatTemplate = file.chatTemplate != nil
    tensorCount = file.tensors.count
    metadata = Dictionary(file.metadataEntries.map { ($0.0, $0.1.summary) }, uniquingKeysWith: { a, _ in a })
  }

}
