import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct ModelsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "models",
    abstract: "List, download, verify, choose and remove models.",
    subcommands: [
      List.self, Info.self, Estimate.self, Pull.self, Verify.self, Use.self, Remove.self, ModelSettingsCommand.self,
    ]
  )

  static var registry: ModelRegistry { ModelRegistry(folder: HearthPaths().models) }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "The installed models by id, with their state (bundled models not installed with --all).")

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .long, help: "Also list catalogue entries that are not installed.")
    var all = false

    @Flag(name: .long, help: "Check every file's SHA-256 now (slow for big files).")
    var verify = false

    func run() async throws {
      try await reportingFailures {
        let models = try registry.list(hashing: verify).filter { all || $0.isInstalled }
        guard !json else { return Terminal.write(try JSONOutput.encode(models) + "\n") }
        guard !models.isEmpty else {
          return Terminal.write("No models installed in \(registry.folder.path).\n")
        }
        for model in models {
          let size = model.header.map { byteCount($0.fileSize).split(separator: " (").first.map(String.init) ?? "" }
          Terminal.write(
            "\(model.isActive ? "*" : " ") \(model.id.padding(toLength: 28, withPad: " ", startingAt: 0)) "
              + "\(model.entry.role.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))"
              + "\((size ?? "-").padding(toLength: 11, withPad: " ", startingAt: 0))\(Self.state(model.status))\n")
        }
      }
    }

    static func state(_ status: ModelStatus) -> String {
      switch status {
      case .ready(let verified): verified ? "ready, verified" : "ready"
      case .missing: "not installed"
      case .invalid(let problem): "unusable: \(problem)"
      }
    }
  }

  struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check a model's GGUF header and print what it says, without loading the weights.")

    @Argument(help: "A model's id, or the path of a GGUF file.")
    var model: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
      try await reportingFailures {
        let path = try registry.file(named: model)
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

  struct Estimate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "What loading a model would take in memory, against what is available, without loading it.")

    @Argument(help: "A model's id, or the path of a GGUF file.")
    var model: String

    @Option(name: .long, help: "Context window in tokens (default: min(4096, the model's trained context)).")
    var context: Int?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    struct Report: Encodable {
      var model: String
      var estimate: MemoryEstimate
      var budget: MemoryBudget
      var fits: Bool
      var largestContext: Int?

      enum CodingKeys: String, CodingKey {
        case model, estimate, budget, fits
        case largestContext = "largest_context"
      }
    }

    func run() async throws {
      try await reportingFailures {
        let path = try registry.file(named: model)
        let shape = try ModelShape(path: path)
        if let context, !(1...(shape.trainedContext ?? Int.max)).contains(context) {
          throw ValidationError("--context \(context) is outside 1…\(shape.trainedContext ?? 0), what the model takes")
        }
        let estimate = shape.estimate(contextSize: context ?? shape.defaultContext)
        let budget = try MemoryBudget.current(environment: ProcessInfo.processInfo.environment)
        let report = Report(
          model: URL(fileURLWithPath: path).lastPathComponent, estimate: estimate, budget: budget,
          fits: estimate.total <= budget.bytes,
          largestContext: shape.largestContext(fitting: budget.bytes, upTo: shape.trainedContext ?? 4096))
        guard !json else { return Terminal.write(try JSONOutput.encode(report) + "\n") }
        func mib(_ bytes: UInt64) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        Terminal.write(
          """
          model             \(report.model)
          context           \(estimate.contextSize) tokens
          weights           \(mib(estimate.weights))
          KV cache          \(mib(estimate.kvCache))
          buffers           \(mib(estimate.outputs + estimate.compute))
          total             \(mib(estimate.total))
          available         \(mib(budget.bytes)) (\(budget.source))
          fits              \(report.fits ? "yes" : "no")\(report.largestContext.map { " (largest context that fits: \($0))" } ?? "")
          """ + "\n")
      }
    }
  }

  struct Pull: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Download a GGUF model, check its SHA-256 and install it (an interrupted pull resumes).")

    @Argument(help: "An http:// or https:// URL of a .gguf file.")
    var url: String

    @Option(name: .long, help: "The file's SHA-256 (64 hex digits); nothing is installed unless it matches.")
    var sha256: String

    @Option(name: .long, help: "The id to install it as (default: the URL's file name without .gguf).")
    var name: String?

    @Flag(
      name: .customLong("allow-private-network"),
      help: "Allow a URL (or a redirect) on this machine or a private network, such as a model server of your own.")
    var allowPrivateNetwork = false

    func run() async throws {
      try await reportingFailures {
        let bar = ProgressBar()
        let downloader = ModelDownloader(
          registry: registry, destination: PullDestination(allowsPrivateNetwork: allowPrivateNetwork))
        let model = try await downloader.pull(
          url: url, sha256: sha256, name: name, progress: { bar.show($0) })
        bar.finish()
        Terminal.write(
          "Installed \(model.id) (\(model.entry.role.rawValue) model, SHA-256 verified) at \(model.path)\n")
      }
    }
  }

  struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check a model fully: file, size, GGUF header and SHA-256 (exit status 1 when unusable).")

    @Argument(help: "A model's id or file name.")
    var model: String

    func run() async throws {
      try await reportingFailures {
        let (checked, hash) = try registry.verify(model)
        Terminal.write("\(checked.id): \(List.state(checked.status))\(hash.map { "\nsha256 \($0)" } ?? "")\n")
        guard checked.status.isUsable else { throw ExitCode.failure }
      }
    }
  }

  struct Use: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Choose the model commands and the server run by default (checked fully first).")

    @Argument(help: "A model's id or file name.")
    var model: String

    func run() async throws {
      try await reportingFailures {
        let chosen = try registry.use(model)
        Terminal.write("Using \(chosen.id) as the \(chosen.entry.role.rawValue) model.\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Delete a model's file and forget it.")

    @Argument(help: "A model's id or file name.")
    var model: String

    func run() async throws {
      try await reportingFailures {
        let removed = try registry.remove(model)
        Terminal.write("Removed \(removed.id).\n")
      }
    }
  }
}

/// A download's progress on stderr: one line redrawn in a terminal, a line per tenth otherwise.
final class ProgressBar: @unchecked Sendable {
  private let lock = NSLock()
  private var lastTenth = -1
  private var drawn = false
  private let interactive = isatty(STDERR_FILENO) == 1

  func show(_ progress: DownloadProgress) {
    lock.withLock {
      let line = Self.line(progress)
      if interactive {
        Terminal.writeError("\r\u{1B}[2K\(line)")
        drawn = true
      } else {
        let tenth = Int((progress.fraction ?? 0) * 10)
        guard tenth != lastTenth else { return }
        lastTenth = tenth
        Terminal.writeError(line + "\n")
      }
    }
  }

  func finish() {
    lock.withLock { if drawn { Terminal.writeError("\n") } }
  }

  static func line(_ progress: DownloadProgress) -> String {
    let width = 24
    let filled = Int((progress.fraction ?? 0) * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let amount = "\(mebibytes(progress.received))\(progress.total.map { " / \(mebibytes($0))" } ?? "") MiB"
    let rate = String(format: "%.1f MiB/s", progress.bytesPerSecond / 1_048_576)
    let eta = progress.secondsLeft.map { "  ETA \(Int($0.rounded(.up))) s" } ?? ""
    let resumed = progress.resumedFrom > 0 ? "  (resumed at \(mebibytes(progress.resumedFrom)) MiB)" : ""
    return "[\(bar)] \(amount)  \(rate)\(eta)\(resumed)"
  }

  private static func mebibytes(_ bytes: UInt64) -> String {
    String(format: "%.1f", Double(bytes) / 1_048_576)
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
