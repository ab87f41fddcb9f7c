public import Foundation
public import HearthCore
public import HearthStore
public import Logging

/// Which chat model an engine runs.
public enum ModelChoice: Sendable, Hashable {
  /// None: the engine serves the profile's data only (listing, searching, exporting sessions).
  case none
  /// The model at `path` when given, else `$HEARTH_MODEL`, else the default model installed in the profile;
  /// its layers spread over the rpc-server workers at `rpcServers` (`host:port`) when any are given.
  /// `parallel` is how many generations run at once (each in a slot of `contextSize` tokens); `nil` keeps the
  /// saved setting, else 1. `gpuLayers` is how many layers run on a GPU; `nil` keeps the saved setting, else
  /// `auto`.
  case file(
    path: String?, contextSize: Int? = nil, threads: Int? = nil, chatTemplate: String? = nil, rpcServers: [String] = [],
    parallel: Int? = nil, gpuLayers: GPULayers? = nil)
}

/// How ``Engine/open(_:)`` opens a profile.
public struct EngineConfiguration: Sendable {
  /// The data directory.
  public var paths: HearthPaths
  /// The chat model to load.
  public var model: ModelChoice
  /// How chat turns behave (default generation settings, thinking, summaries).
  public var chat: ChatConfiguration
  /// Old sessions to prune when a generating engine opens; `nil` keeps them all.
  public var historyPolicy: HistoryPolicy?
  /// Where `HEARTH_MODEL` is read from.
  public var environment: [String: String]
  /// The user's clock: floating and all-day times in their calendar are read on it. `$TZ` when it names a
  /// zone, else the system's.
  public var timeZone: TimeZone
  /// The current time, read wherever "today" and "now" matter (drafting, the prompt's days, stamps); the
  /// system's clock unless an evaluation fixes the day.
  public var clock: @Sendable () -> Date = { Date() }
  /// Whether a date such as `3/12` is read day first (the 3rd of December) or month first (March 12, as in
  /// the United States): from the locale in `$LC_ALL`, `$LC_TIME` or `$LANG`, day first when none says.
  public var dayFirst: Bool
  /// Where `WEB_SEARCH` blocks search: a SearXNG server from `$HEARTH_SEARXNG_URL`; `nil` (the default)
  /// keeps web search off.
  public var webSearch: (any WebSearchProvider)?
  /// What reaches the MCP servers the user added (``ToolServer``); `nil` leaves their tools out of every
  /// answer.
  public var toolConnector: (any ToolConnector)?
  /// The embedding model file for the memory: `$HEARTH_EMBEDDING_MODEL`, else the default one installed in
  /// the profile's models folder.
  public var embeddingModel: String?
  /// An embedding model already loaded, shared by several engines (as tests and benchmarks do).
  public var sharedEmbedder: LocalEmbedder?
  /// The whisper.cpp model speech is transcribed with: `$HEARTH_SPEECH_MODEL`, else the default one installed
  /// in the profile's models folder.
  public var speechModel: String?
  /// The Piper voice Hearth speaks with (an ONNX file prepared for sherpa-onnx, its `.tokens.txt` beside it):
  /// `$HEARTH_VOICE_MODEL`, else the default one installed in the profile's models folder.
  public var voiceModel: String?
  /// Silero VAD in whisper.cpp's format, which finds speech for the hands-free mode and cuts silence before
  /// transcribing: `$HEARTH_VAD_MODEL`, else the default one installed in the profile's models folder.
  public var voiceActivityModel: String?
  /// A vision model's projector (`mmproj` GGUF) for the chat model: `$HEARTH_MMPROJ`. With one, images attached
  /// to messages are read by the model through llama.cpp's `mtmd`; without one (or when it cannot be used), by
  /// OCR.
  public var visionProjector: String?
  /// Where the machine's sensors are read (`/sys`; `$HEARTH_SYSFS_ROOT` points elsewhere, as tests do).
  public var sensorsRoot: URL
  /// A remote server turns may go to; `nil` reads `HEARTH_REMOTE_URL` and its companions.
  public var remote: RemoteSettings?
  /// Who answers: the local model, the remote server, or the router's choice; `nil` takes the profile's
  /// saved choice, else `auto`.
  public var provider: ProviderPreference?
  /// Where the engine tells an operator what went wrong out of sight: a figure or an action record that could
  /// not be kept, a chat that could not be indexed, a model let go. Quiet unless the surface gives one.
  public var logger = Logger.discarding
  /// Load the model while opening (so that a model that cannot load fails at once), or only when a turn
  /// first needs it.
  public var loadsModelAtOpen = true

  /// The file name of the default embedding model.
  public static let defaultEmbeddingModelFileName = "all-MiniLM-L6-v2.f16.gguf"

  /// The file name of the default speech model (Whisper tiny.en, English only).
  public static let defaultSpeechModelFileName = "ggml-tiny.en.bin"

  /// The file name of the default voice (Piper's "joe", American English).
  public static let defaultVoiceModelFileName = "en_US-joe-medium.onnx"

  /// The file name of the default voice-activity model.
  public static let defaultVoiceActivityModelFileName = "ggml-silero-v6.2.3.bin"

  /// The voice-activity model speech is found with.
  public var voiceActivityModelPath: String {
    voiceActivityModel ?? paths.models.appendingPathComponent(Self.defaultVoiceActivityModelFileName).path
  }

  /// The voice Hearth speaks with.
  public var voiceModelPath: String {
    voiceModel ?? paths.models.appendingPathComponent(Self.defaultVoiceModelFileName).path
  }

  /// The speech model transcriptions use.
  public var speechModelPath: String {
    speechModel ?? paths.models.appendingPathComponent(Self.defaultSpeechModelFileName).path
  }

  /// The embedding model the memory uses.
  public var embeddingModelPath: String {
    embeddingModel ?? paths.models.appendingPathComponent(Self.defaultEmbeddingModelFileName).path
  }

  /// Creates a configuration; the history policy comes from `HEARTH_KEEP_SESSIONS` / `HEARTH_KEEP_DAYS`.
  public init(
    paths: HearthPaths? = nil, model: ModelChoice = .none, chat: ChatConfiguration = .init(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.paths = paths ?? HearthPaths(environment: environment)
    self.model = model
    self.chat = chat
    self.historyPolicy = HistoryPolicy(environment: environment)
    self.environment = environment
    self.embeddingModel = environment["HEARTH_EMBEDDING_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    self.speechModel = environment["HEARTH_SPEECH_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    self.voiceModel = environment["HEARTH_VOICE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    self.voiceActivityModel = environment["HEARTH_VAD_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
    self.visionProjector = environment["HEARTH_MMPROJ"].flatMap { $0.isEmpty ? nil : $0 }
    self.sensorsRoot = URL(
      fileURLWithPath: environment["HEARTH_SYSFS_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? "/sys")
    self.webSearch = environment["HEARTH_SEARXNG_URL"].flatMap(URL.init(webAddress:)).map { SearXNGClient(base: $0) }
    self.timeZone =
      environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) } ?? .current
    self.dayFirst = Self.readsDayFirst(environment: environment)
  }

  /// Regions whose people write the month first (`en_US.UTF-8` → `US`).
  static let monthFirstRegions: Set<String> = ["US", "PH", "PR", "GU", "AS", "VI", "UM", "FM", "MH", "PW"]

  static func readsDayFirst(environment: [String: String]) -> Bool {
    let locale =
      [environment["LC_ALL"], environment["LC_TIME"], environment["LANG"]].compactMap { $0 }
      .first { !$0.isEmpty } ?? ""
    let name = locale.split(separator: ".").first.map(String.init) ?? ""
    guard let region = name.split(separator: "_").dropFirst().first.map({ String($0.prefix(2)) }) else {
      return true
    }
    return !monthFirstRegions.contains(region.uppercased())
  }
}

extension Logger {
  /// Says nothing: what the engine and its services log to until a surface passes a logger of its own.
  @usableFromInline static let discarding = Logger(label: "hearth", factory: { _ in SwiftLogNoOpLogHandler() })
}
