import HTTPTypes
import HearthEngine
import HearthMCP
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
  router.add(middleware: SecurityMiddleware(configuration: configuration, devices: dependencies.engine.devices))
  // Only listed origins get this far with an `Origin` header, so echoing it allows exactly those.
  router.add(
    middleware: CORSMiddleware(
      allowOrigin: .originBased,
      allowHeaders: [
        .authorization, .contentType, .apiKey,
        HTTPField.Name("anthropic-version")!,
      ],
      allowMethods: [.get, .post, .put, .patch, .delete, .options], maxAge: .seconds(600)))
  // Each area's routes are collected in its own type and mounted where its addresses start.
  let openAI = OpenAIRoutes<HearthRequestContext>(
    dependencies: dependencies, configuration: configuration, metrics: metrics)
  router.mount(openAI)
  router.mount(TextCompletionsRoute(chat: openAI))
  router.mount(ResponsesRoute(chat: openAI))
  router.mount(MessagesRoute(chat: openAI))
  router.mount(EmbeddingsRoute(dependencies: dependencies, configuration: configuration))
  router.mount(TranscriptionsRoute(dependencies: dependencies, configuration: configuration))
  router.mount(SpeechRoute(dependencies: dependencies, configuration: configuration))
  router.mount(VoiceRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(TokenizerRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(SessionRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(SessionBulkRoutes(dependencies: dependencies, configuration: configuration))
  let live = LiveTurns()
  router.mount(TurnRoutes(dependencies: dependencies, configuration: configuration, metrics: metrics, live: live))
  router.mount(CalendarRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(ReminderRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(NoteRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(HabitRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(ContactRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(ActionRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(MemoryRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(FactRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(PersonaRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(TemplateRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(AccountRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(BackupRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(ModelRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(RemoteRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(WebSearchRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(RuntimeRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(SettingsRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(DiagnosticsRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(SystemRoutes(dependencies: dependencies, metrics: metrics))
  let mcp = MCPHTTPEndpoint(server: HearthMCPServer(engine: dependencies.engine, logger: dependencies.logger))
  router.mount(MCPRoutes(endpoint: mcp, configuration: configuration))
  router.mount(MCPSettingsRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(ToolServerRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(PromptRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(HistoryImportRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(AttachmentRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(BriefingRoutes(dependencies: dependencies))
  router.mount(NoticeRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(TrustRoutes(configuration: configuration))
  router.mount(DeviceRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(PushRoutes(dependencies: dependencies, configuration: configuration))
  router.mount(DAVRoutes(dependencies: dependencies, configuration: configuration))
  try WebAssets.load().register(on: router)
  return Application(
    router: router,
    server: try serverBuilder(for: configuration),
    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Hearth"),
    services: [MCPSessionsService(endpoint: mcp)],
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
    logger: dependencies.logger)
}
