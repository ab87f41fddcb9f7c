public import Foundation
import HTTPTypes
public import HearthCore
public import HearthEngine
public import HearthStore
public import Logging

/// What the server works with, made by the caller so tests run the same app on their own profile and model.
public struct ServerDependencies: Sendable {
  /// The profile's database: sessions, messages, settings.
  public var database: HearthDatabase
  /// The turn lifecycle for the web app's chats.
  public var chat: ChatService
  /// The model that answers, or `nil` when none is loaded.
  public var model: (any ChatModel)?
  /// The loaded model's file, for `/v1/models` and the models view.
  public var modelPath: String?
  /// Where installed models live.
  public var modelsFolder: URL
  /// One request at a time on the model, first come first served.
  public var queue: GenerationQueue
  /// Hearth's own system prompt for web chats when the user has not written one.
  public var defaultSystemPrompt: @Sendable () -> String
  /// Log output; never given user content.
  public var logger: Logger
  /// When the server started, for health and diagnostics.
  public var startedAt: Date

  public init(
    database: HearthDatabase, chat: ChatService, model: (any ChatModel)?, modelPath: String?, modelsFolder: URL,
    queue: GenerationQueue = GenerationQueue(), defaultSystemPrompt: @escaping @Sendable () -> String,
    logger: Logger = Logger(label: "hearth.server"), startedAt: Date = Date()
  ) {
    self.database = database
    self.chat = chat
    self.model = model
    self.modelPath = modelPath
    self.modelsFolder = modelsFolder
    self.queue = queue
    self.defaultSystemPrompt = defaultSystemPrompt
    self.logger = logger
    self.startedAt = startedAt
  }

  /// The model, or the error a request gets when there is none.
  func requireModel() throws -> any ChatModel {
    guard let model else { throw APIError(.serviceUnavailable, "no model is loaded", code: "model_not_loaded") }
    return model
  }

  /// The user's saved chat settings, or the defaults.
  func settings() throws -> ChatSettings {
    try database.chatSettings()
  }
}
