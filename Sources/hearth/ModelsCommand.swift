import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

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
        let report = try ModelCatalog.inspect(path: path)
        Terminal.write(json ? try JSONOutput.encode(report) + "\n" : Self.text(report))
      }
    }

    private static func text(_ file: ModelFileReport) -> String {
      func row(_ label: String, _ value: String?) -> String {
        "\(label.padding(toLength: 18, withPad: " ", startingAt: 0))\(value ?? "-")\n"
      }
      let template = file.hasChatTemplate ? "yes (\(file.chatTemplateBytes) bytes)" : "none"
      return row("file", file.path)
        + row("size", byteCount(file.fileSize))
        + row("gguf version", "\(file.ggufVersion)")
        + row("architecture", file.architecture)
        + row("name", file.name)
        + row("parameters", parameterCount(file.parameterCount))
        + row("file type", file.fileType)
        + row("context length", file.contextLength.map { "\($0)" })
        + row("embedding length", file.embeddingLength.map { "\($0)" })
        + row("layers", file.blockCount.map { "\($0)" })
        + row("attention heads", file.headCount.map { "\($0)" })
        + row("tokenizer", file.tokenizer)
        + row("vocabulary", file.vocabularySize.map { "\($0)" })
        + row("chat template", template)
        + row("tensors", "\(file.tensorCount)")
        + row("metadata keys", "\(file.metadata.count)")
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
