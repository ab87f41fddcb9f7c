import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

/// Writes straight to the file descriptors, unbuffered, so streamed tokens appear as they are generated.
enum Terminal {
  /// `part/whole (percent %)`, as the benchmark tables show a share.
  static func share(_ part: Int, _ whole: Int) -> String {
    String(format: "%d/%d (%.0f %%)", part, whole, 100 * Double(part) / Double(max(whole, 1)))
  }

  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  static let isInteractive = isatty(STDOUT_FILENO) == 1
  static func dim(_ text: String) -> String { isInteractive ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
  /// Found text: shown inverted on a terminal, between » « in a file.
  static func mark(_ text: String) -> String { isInteractive ? "\u{1B}[7m\(text)\u{1B}[0m" : "»\(text)«" }
}

/// Runs a command body, turning any failure into one readable line on stderr and exit status 1.
func reportingFailures(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let exit as ExitCode {
    throw exit
  } catch is CancellationError {
    throw ExitCode(130)
  } catch {
    Terminal.writeError("hearth: \(error)\n")
    throw ExitCode.failure
  }
}

/// The model file and CPU threads, shared by every command that runs a model.
struct ModelFileOptions: ParsableArguments {
  @Option(name: .long, help: "GGUF model file (default: $HEARTH_MODEL, else the installed default model).")
  var model: String?

  @Option(name: .long, help: "CPU threads (default: one per core).")
  var threads: Int?

  func resolvedModelPath() throws -> String {
    try ModelResolver(paths: HearthPaths()).resolve(explicit: model)
  }

  var resolvedThreads: Int { threads ?? Processors.available }
}

/// Options every command that chats with a model shares.
struct ModelOptionGroup: ParsableArguments {
  @OptionGroup var file: ModelFileOptions

  @Option(name: .long, help: "Context window in tokens (default: min(4096, the model's trained context)).")
  var context: Int?

  @Option(
    name: .long,
    help: "Chat template to use instead of the model's own (a llama.cpp template name such as chatml, or a template).")
  var chatTemplate: String?

  @Option(
    name: .long,
    help: """
      Spread the model's layers over rpc-server workers (host:port,host:port). Trusted networks only: the RPC \
      protocol has no authentication or encryption.
      """)
  var rpc: String?

  @Option(
    name: .long,
    help: "Requests answered at once, each with a context window of its own (default: the saved setting, else 1).")
  var parallel: Int?

  @Option(
    name: .long,
    help: """
      Layers run on a GPU: auto (what fits in its free memory; none without a GPU) or a number (0: CPU only). \
      (default: the saved setting, else auto)
      """)
  var gpuLayers: String?

  /// The model the engine loads.
  func modelChoice() throws -> ModelChoice {
    if let parallel, !(1...RuntimeSettings.maxParallel).contains(parallel) {
      throw InvalidParameterError(
        name: "--parallel", value: "\(parallel)", expected: "1 to \(RuntimeSettings.maxParallel)")
    }
    return .file(
      path: file.model, contextSize: context, threads: file.threads, chatTemplate: chatTemplate,
      rpcServers: rpc.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [],
      parallel: parallel, gpuLayers: try gpuLayers.map { try GPULayers(parsing: $0, parameter: "--gpu-layers") })
  }
}

/// Sampling and length options.
struct SamplingOptionGroup: ParsableArguments {
  @Option(name: .long, help: "Most tokens to generate.")
  var maxTokens: Int = 512

  @Option(name: .long, help: "Sampling temperature; 0 is greedy (deterministic). (default: 0.7)")
  var temperature: Double?

  @Option(name: .long, help: "Top-k filter; 0 disables it. (default: 40)")
  var topK: Int?

  @Option(name: .long, help: "Top-p (nucleus) filter; 1 disables it. (default: 0.95)")
  var topP: Double?

  @Option(name: .long, help: "Min-p filter; 0 disables it. (default: 0.05)")
  var minP: Double?

  @Option(name: .long, help: "Repeat penalty; 1 disables it. (default: 1.1)")
  var repeatPenalty: Double?

  @Option(name: .long, help: "Random seed (default: a fresh one each time).")
  var seed: UInt32?

  @Option(
    name: .long,
    help:
      "Stop an answer after this many seconds, keeping what it has so far; 0 sets no limit (the web app's default too)."
  )
  var timeout: Double = ChatSettings.defaultTimeLimit

  /// The command line's own sampling values.
  static let defaultSampling = SamplingParameters(
    temperature: 0.7, topK: 40, topP: 0.95, minP: 0.05, repeatPenalty: 1.1)

  /// The options the flags ask for; a value not given is `preset`'s (a persona's) when one is, else the
  /// command line's default.
  func generationOptions(preset: ChatSettings.Preset? = nil) throws -> GenerationOptions {
    let base = preset?.sampling ?? Self.defaultSampling
    let sampling = SamplingParameters(
      temperature: temperature ?? base.temperature, topK: topK ?? base.topK, topP: topP ?? base.topP,
      minP: minP ?? base.minP, repeatPenalty: repeatPenalty ?? base.repeatPenalty, seed: seed)
    guard timeout.isFinite, timeout == 0 || (0.1...86_400).contains(timeout) else {
      throw InvalidParameterError(name: "timeout", value: "\(timeout)", expected: "0 (none) or 0.1 to 86400 seconds")
    }
    let options = GenerationOptions(
      maxNewTokens: maxTokens, sampling: sampling, timeout: timeout > 0 ? .seconds(timeout) : nil)
    try options.validate()
    return options
  }
}

extension StopReason {
  /// A short notice for the user when the answer did not end naturally.
  var notice: String? {
    switch self {
    case .endOfGeneration: nil
    case .maxTokens: "[stopped: reached the maximum number of new tokens]"
    case .contextFull: "[stopped: the context window is full]"
    case .cancelled: "[stopped]"
    case .timeout: "[stopped: time limit reached]"
    case .repetition: "[stopped: the answer began repeating itself]"
    }
  }
}
