public import ArgumentParser
import Foundation
import HearthCore
public import HearthEngine

/// `hearth models settings`: presets and numbers for how the local model runs.
struct ModelSettingsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "settings",
    abstract: "How the local model runs: presets (efficient, balanced, quality) or your own numbers.",
    subcommands: [Show.self, Preview.self, Apply.self, Validate.self, Test.self])

  /// The numbers a command line gives.
  struct Numbers: ParsableArguments {
    @Option(name: .long, help: "efficient, balanced, quality or custom.")
    var preset: RuntimeSettings.Preset?

    @Option(name: .long, help: "Context window in tokens.")
    var context: Int?

    @Option(name: .long, help: "CPU threads.")
    var threads: Int?

    @Option(name: .long, help: "Most prompt tokens evaluated in one step.")
    var batch: Int?

    @Option(name: .long, help: "Requests answered at once, each with a context window of its own (1 to 16).")
    var parallel: Int?

    @Flag(
      inversion: .prefixedNo,
      help: "Read the model file into the page cache before each load (a faster first answer after a cold start).")
    var prefetch: Bool?

    @Option(
      name: .long,
      help: "Layers run on a GPU: auto (what fits in its free memory; none without a GPU) or a number (0: CPU only).")
    var gpuLayers: String?

    /// The saved settings with these over them: a preset's numbers, then any number given (which makes the
    /// settings custom).
    /// - Throws: ``InvalidParameterError`` naming `--gpu-layers` when it is neither `auto` nor a layer count.
    func settings(over saved: RuntimeSettings) throws -> RuntimeSettings {
      var settings = preset.map { RuntimeSettings.preset($0) } ?? saved
      if context != nil || threads != nil || batch != nil {
        settings.preset = .custom
        settings.contextSize = context ?? settings.contextSize
        settings.threads = threads ?? settings.threads
        settings.batchSize = batch ?? settings.batchSize
      }
      // Answering several at once changes no preset's numbers for one answer.
      settings.parallel = parallel ?? settings.parallel
      // Reading ahead is no number of a preset's either: kept unless said.
      settings.prefetch = prefetch ?? saved.prefetch
      // Nor is the GPU: every preset offloads what fits, so a chosen count is kept unless said.
      settings.gpuLayers =
        try gpuLayers.map { try GPULayers(parsing: $0, parameter: "--gpu-layers") } ?? saved.gpuLayers
      return settings
    }
  }

  /// The profile with the chosen model known but not loaded.
  static func engine(loading: Bool = false) async throws -> Engine {
    var configuration = EngineConfiguration()
    configuration.model = .file(path: nil)
    configuration.loadsModelAtOpen = loading
    configuration.provider = .local
    return try await Engine.open(configuration)
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The saved settings and the latest test.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    struct Report: Encodable {
      var settings: RuntimeSettings
      var lastTest: RuntimeTestResult?
      enum CodingKeys: String, CodingKey {
        case settings
        case lastTest = "last_test"
      }
    }

    func run() async throws {
      try await reportingFailures {
        let engine = try await ModelSettingsCommand.engine()
        let report = Report(settings: try engine.runtimeSettings(), lastTest: try engine.lastRuntimeTest())
        guard !json else { return Terminal.write(try JSONOutput.encode(report) + "\n") }
        Terminal.write(ModelSettingsCommand.describe(report.settings))
        if let test = report.lastTest { Terminal.write("latest test    " + ModelSettingsCommand.describe(test) + "\n") }
      }
    }
  }

  struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "What settings would change (memory, KV cache, expected speed) without applying them.")
    @OptionGroup var numbers: Numbers
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await ModelSettingsCommand.engine()
        let impact = try engine.previewRuntime(numbers.settings(over: try engine.runtimeSettings()))
        Terminal.write(json ? try JSONOutput.encode(impact) + "\n" : ModelSettingsCommand.describe(impact))
      }
    }
  }

  struct Apply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Save settings; the model loads with them on its next turn.")
    @OptionGroup var numbers: Numbers
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await ModelSettingsCommand.engine()
        let settings = try numbers.settings(over: try engine.runtimeSettings())
        let impact = try engine.applyRuntime(settings)
        guard !json else { return Terminal.write(try JSONOutput.encode(impact) + "\n") }
        Terminal.write(ModelSettingsCommand.describe(impact) + "Saved \(settings.preset.rawValue) settings.\n")
      }
    }
  }

  struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load the chosen model with the saved settings and compare them with what llama.cpp was given.",
      discussion: "Exits with status 1 when a number differs.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await ModelSettingsCommand.engine()
        let checks = try await engine.validateRuntime()
        if json {
          Terminal.write(try JSONOutput.encode(checks) + "\n")
        } else {
          for check in checks {
            Terminal.write(
              "\(check.name.padding(toLength: 14, withPad: " ", startingAt: 0)) wanted \(check.wanted), "
                + "llama.cpp has \(check.given ?? "-") — \(check.verdict)\n")
          }
        }
        if checks.contains(where: { $0.verdict != "ok" }) { throw ExitCode(1) }
      }
    }
  }

  struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a tiny prompt with the saved settings and record the figures.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await ModelSettingsCommand.engine()
        let result = try await engine.testRuntime()
        Terminal.write(json ? try JSONOutput.encode(result) + "\n" : ModelSettingsCommand.describe(result) + "\n")
      }
    }
  }

  static func describe(_ settings: RuntimeSettings) -> String {
    func number(_ value: Int?, _ fallback: String) -> String { value.map { "\($0)" } ?? fallback }
    return """
      preset         \(settings.preset.rawValue)
      context        \(number(settings.contextSize, "the model's recommended"))
      threads        \(number(settings.threads, "one per core"))
      batch          \(number(settings.batchSize, "512"))
      parallel       \(number(settings.parallel, "1"))
      prefetch       \(settings.prefetch == true ? "yes" : "no")
      gpu layers     \(settings.gpuLayers?.description ?? "auto")

      """
  }

  static func describe(_ impact: RuntimeImpact) -> String {
    func mib(_ bytes: UInt64) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    func row(_ label: String, _ now: String, _ next: String) -> String {
      label.padding(toLength: 20, withPad: " ", startingAt: 0) + now.padding(toLength: 14, withPad: " ", startingAt: 0)
        + next + "\n"
    }
    let (now, next) = (impact.current, impact.proposed)
    let source = impact.speedSource.rawValue
    return "model \(impact.model)\n" + row("", "now", "with these")
      + row("context", "\(now.contextSize)", "\(next.contextSize)")
      + row("threads", "\(now.threads)", "\(next.threads)") + row("batch", "\(now.batchSize)", "\(next.batchSize)")
      + row("parallel", "\(now.parallel)", "\(next.parallel)")
      + row("memory (estimate)", mib(now.estimatedBytes), mib(next.estimatedBytes))
      + row("KV cache", mib(now.kvCacheBytes), mib(next.kvCacheBytes))
      + row("generation speed", "1.00×", String(format: "%.2f×", impact.generationSpeedFactor) + " (\(source))")
      + row("prompt speed", "1.00×", String(format: "%.2f×", impact.promptSpeedFactor) + " (\(source))")
      + (impact.risk.map { risk in
        "risk                \(risk.level.word)\n" + risk.reasons.map { "  - \($0)\n" }.joined()
      } ?? "")
  }

  static func describe(_ test: RuntimeTestResult) -> String {
    var parts = ["\(test.model) with \(test.settings.preset.rawValue) settings"]
    if let load = test.loadMs { parts.append(String(format: "load %.0f ms", load)) }
    if let first = test.firstTokenMs { parts.append(String(format: "first token %.0f ms", first)) }
    if let speed = test.tokensPerSecond { parts.append(String(format: "%.1f tokens/s", speed)) }
    if let prompt = test.promptTokensPerSecond { parts.append(String(format: "prompt %.1f tokens/s", prompt)) }
    if let peak = test.peakResidentBytes { parts.append(String(format: "peak %.1f MiB", Double(peak) / 1_048_576)) }
    return parts.joined(separator: ", ")
  }
}

extension RuntimeSettings.Preset: ExpressibleByArgument {}
