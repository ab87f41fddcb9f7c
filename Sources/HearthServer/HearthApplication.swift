public import Hummingbird
import Logging
import NIOCore

/// Builds the server: the OpenAI-compatible API, the web app and its API, health and metrics, behind
/// the security checks. `hearth serve` and the tests run this same application.
/// - Throws: ``ServerConfigurationError`` for an unsafe configuration; ``APIError`` when the web app's
///   files are missing.
public func buildApplication(
  configuration: ServerConfiguration, dependencies: ServerDependencies,
  onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
  try configuration.validate()
  let metrics = ServerMetrics(logger: dependencies.logger)
  let router = Router(context: HearthRequestContext.self)
  router.add(middleware: ContentSecurityMiddleware())
  router.add(middleware: ErrorMiddleware(logger: dependencies.logger, metrics: metrics))
  router.add(middleware: SecurityMiddleware(configuration: configuration))
  // Only listed origins get this far with an `Origin` header, so echoing it allows exactly those.
  router.add(
    middleware: CORSMiddleware(
      allowOrigin: .originBased, allowHeaders: [.authorization, .contentType],
      allowMethods: [.get, .post, .put, .patch, .delete, .options], maxAge: .seconds(600)))
  let openAI = OpenAIRoutes<HearthRequestContext>(
    dependencies: dependencies, configuration: configuration, metrics: metrics)
  openAI.register(on: router)
  TextCompletionsRoute(chat: openAI).register(on: router)
  ResponsesRoute(chat: openAI).register(on: router)
  SessionRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  CalendarRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  NoteHabitContactRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  ActionRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  MemoryRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  EmbeddingsRoute(dependencies: dependencies, configuration: configuration).register(on: router)
  TranscriptionsRoute(dependencies: dependencies, configuration: configuration).register(on: router)
  TokenizerRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  TurnRoutes(dependencies: dependencies, configuration: configuration, metrics: metrics).register(on: router)
  SystemRoutes(dependencies: dependencies, configuration: configuration, metrics: metrics).register(on: router)
  ModelRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
  try WebAssets.load().register(on: router)
  return Application(
    router: router,
    server: .http1(configuration: .init(additionalChannelHandlers: [ClientDepartureHandler()])),
    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Hearth"),
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
    logger: dependencies.logger)
}
