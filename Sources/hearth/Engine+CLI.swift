import Foundation
import HearthCore
import HearthEngine
import HearthMCP
import Logging

extension Engine {
  /// Opens the user's profile (`$HEARTH_HOME`) without a model, for commands that only read or change
  /// saved data.
  static func openProfile() async throws -> Engine {
    var configuration = EngineConfiguration()
    configuration.logger = Logger.commandLine()
    configuration.connectsToolServers()
    return try await open(configuration)
  }

  /// Opens the user's profile with the model the options name, for commands that chat.
  static func openForChat(
    _ options: ModelOptionGroup, generation: GenerationOptions? = nil, showsThinking: Bool = true, actions: Bool = true,
    memory: Bool = true, provider: ProviderPreference? = nil, logger: Logger = .commandLine()
  ) async throws -> Engine {
    var configuration = EngineConfiguration()
    configuration.logger = logger
    configuration.provider = provider
    configuration.model = try options.modelChoice()
    if let generation { configuration.chat.generation = generation }
    configuration.chat.showsThinking = showsThinking
    configuration.chat.actions = actions
    configuration.chat.memory = memory
    configuration.connectsToolServers()
    return try await open(configuration)
  }
}

extension EngineConfiguration {
  /// Lets the profile's MCP servers be reached, their standard error kept in the profile's `logs` folder.
  mutating func connectsToolServers() {
    toolConnector = MCPToolConnector(
      logsFolder: paths.home.appendingPathComponent("logs", isDirectory: true),
      logger: .commandLine(label: "hearth.mcp"))
  }
}

extension Logger {
  /// A logger on standard error, so that what a command prints on standard output stays clean: warnings and
  /// worse unless `LOG_LEVEL` says otherwise.
  static func commandLine(label: String = "hearth", level: Logger.Level = .warning) -> Logger {
    var logger = Logger(label: label, factory: { StreamLogHandler.standardError(label: $0) })
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? level
    return logger
  }
}
