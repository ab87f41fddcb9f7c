import Foundation
import HearthCore
import HearthEngine

extension Engine {
  /// Opens the user's profile (`$HEARTH_HOME`) without a model, for commands that only read or change
  /// saved data.
  static func openProfile() async throws -> Engine {
    try await open(EngineConfiguration())
  }

  /// Opens the user's profile with the model the options name, for commands that chat.
  static func openForChat(
    _ options: ModelOptionGroup, generation: GenerationOptions? = nil, showsThinking: Bool = true, actions: Bool = true,
    memory: Bool = true, provider: ProviderPreference? = nil
  ) async throws -> Engine {
    var configuration = EngineConfiguration()
    configuration.provider = provider
    configuration.model = options.modelChoice()
    if let generation { configuration.chat.generation = generation }
    configuration.chat.showsThinking = showsThinking
    configuration.chat.actions = actions
    configuration.chat.memory = memory
    return try await open(configuration)
  }
}
