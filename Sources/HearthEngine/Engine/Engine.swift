public import Foundation
import HearthActions
public import HearthCore
public import HearthSpeech
import HearthStore
import LlamaKit
public import Logging
import Synchronization

/// The assistant, opened on one profile: the one object every surface (the terminal, the server, the
/// benchmarks, an app) holds. It owns the profile's paths, its lock and database, the settings, the loaded
/// model and the line of requests waiting for it, the chat service and the system prompt; a service added here
/// is there for every surface at once.
public final class Engine: Sendable {
  /// The data directory.
  public let paths: HearthPaths
  /// The saved conversations.
  public let sessions: SessionLibrary
  /// The life of chat turns.
  public let chat: ChatService
  /// The local model slot: what is loaded, what is chosen; `nil` when the engine was opened without a model.
  public let host: LocalModelHost?
  /// The local model in memory now (`nil` without one, or while it is unloaded).
  public var model: LocalModel? { host?.loaded }
  /// The local model and, when one is set up and allowed, a remote server, behind one model that routes each
  /// turn; `nil` without a local model.
  public let routed: RoutedChatModel?
  /// The remote server turns may go to, and the user's preference.
  let remoteState: Mutex<RemoteState>
  /// Where web searches go: `$HEARTH_SEARXNG_URL`, or the server saved on the Settings page.
  let webSearch: LiveSetting<WebSearchState>
  /// The vision projector attached images are read with: `$HEARTH_MMPROJ`, or the one chosen on the Models page.
  let projector: LiveSetting<ProjectorState>
  /// A model given to the engine as it is (``open(_:answering:)``): not a GGUF file of this machine, so not
  /// loaded, switched or routed; `nil` for an engine on a local model or none.
  let given: (any ChatModel)?
  /// The line in front of a given model, as a local model's host has its own: one request at a time, as a
  /// model the engine did not load has no slots it could share out.
  let givenLine = GenerationQueue()
  /// What answers turns: the local model, or the local and a remote one behind the router, or the model
  /// the engine was given.
  public var answering: (any ChatModel)? { routed ?? host ?? given }
  /// When the engine was opened.
  public let openedAt: Date
  /// The user's calendar.
  public let calendar: CalendarService
  /// The user's reminders.
  public let reminders: ReminderService
  /// The user's notes.
  public let notes: NoteService
  /// The user's habits.
  public let habits: HabitService
  /// The user's contacts.
  public let contacts: ContactService
  /// What the user told Hearth about themselves.
  public let facts: FactService
  /// The user's CalDAV and CardDAV accounts, kept in step with the store.
  public let accounts: AccountService
  /// The calendars, reminder lists and contacts as CalDAV/CardDAV collections, for the phone's own apps.
  public let collectionServer: CollectionServer
  /// The phones and other computers paired with this profile, each with a secret of its own.
  public let devices: DeviceService
  /// Notifications pushed to the browsers that asked for them, open or not.
  public let push: PushService
  /// Backups of the profile: settings, taking one, the schedule.
  public let backups: BackupService
  /// What Hearth tells the user unasked: reminders coming due, events about to start, habits not yet done.
  public let notices: NoticeService
  /// Prompts answered on a schedule, each into a chat of its own.
  public let automations: AutomationService
  /// What the assistant's answers do to the user's data.
  public let actions: ActionService
  /// What the assistant remembers: documents, notes, past chats, the persona.
  public let memory: MemoryService
  /// Checks every answer against the records its turn read before it is shown (``AnswerGuard``).
  let answerGuard: AnswerGuard
  /// Model downloads running in the background (the web app's Models page).
  public let pulls = ModelPulls()
  /// Speech to text, with a whisper.cpp model loaded the first time it is needed; its work takes turns with
  /// the language models' decodes.
  public let speech: SpeechRecognizer
  /// Text to speech with the Piper voice (espeak-ng's when it is missing), on a thread of its own so that an
  /// answer is read aloud while it is still being written.
  public let voice: SpeechSynthesizer
  /// Where speech is in audio (Silero VAD): for the hands-free mode, which hears when a person stops talking.
  public let voiceActivity: VoiceActivityDetector

  let database: HearthDatabase
  let sensors: MachineSensors
  let careState = MachineCareState()
  let chatConfiguration: ChatConfiguration
  /// How the engine was opened (the model asked for, the provider preference, the environment).
  let configuration: EngineConfiguration
  /// The surface's logger, for failures that happen out of sight of any caller.
  public let logger: Logger
  /// The answering model, with every generation's figures recorded; what every surface generates with.
  let measured: (any ChatModel)?
  /// The chat's hooks for a turn that is not kept (``TurnTarget/ephemeral(usesMemory:)``): its actions are
  /// logged without a session, the memory reads for it as for any turn, and nothing of it is remembered.
  let unkeptHooks: (actions: ChatService.ActionHooks, memory: ChatService.MemoryHooks)
  // Held for the engine's lifetime when it may generate; released by `deinit`.
  private let lock: ProfileLock?

  private init(
    configuration: EngineConfiguration, paths: HearthPaths, database: HearthDatabase, host: LocalModelHost?,
    given: (any ChatModel)? = nil, chat: ChatConfiguration, lock: ProfileLock?,
    timeZone: TimeZone, webSearch: WebSearchState, embedder: LocalEmbedder, remote: RemoteState
  ) {
    self.configuration = configuration
    let logger = configuration.logger
    self.logger = logger
    self.speech = SpeechRecognizer(
      path: configuration.speechModelPath, line: DecodeExecutor.shared,
      detectorPath: configuration.voiceActivityModelPath)
    self.voiceActivity = VoiceActivityDetector(path: configuration.voiceActivityModelPath)
    self.voice = SpeechSynthesizer(modelPath: configuration.voiceModelPath)
    self.paths = paths
    self.database = database
    self.sensors = MachineSensors(root: configuration.sensorsRoot)
    self.host = host
    self.given = given
    self.remoteState = Mutex(remote)
    let routed = host.map { RoutedChatModel(local: $0, route: Self.route(remote, local: $0)) }
    self.routed = routed
    self.lock = lock
    self.sessions = SessionLibrary(database: database, conversationStates: paths.conversationStates)
    self.openedAt = Date()
    self.chatConfiguration = chat
    let answering: (any ChatModel)? = routed ?? host ?? given
    let measured = answering.map { MeasuredChatModel($0, record: Self.recorder(database, logger: logger)) }
    self.measured = measured
    let items = ItemContext(database: database, timeZone: timeZone, clock: configuration.clock)
    let calendar = CalendarService(context: items)
    let reminders = ReminderService(context: items)
    let notes = NoteService(context: items)
    let habits = HabitService(context: items)
    let contacts = ContactService(context: items)
    let facts = FactService(context: items)
    self.collectionServer = CollectionServer(context: items)
    let webSearch = LiveSetting(webSearch)
    self.webSearch = webSearch
    self.projector = LiveSetting(Self.initialProjector(configuration, database: database))
    let actions = ActionService(
      planner: ActionPlanner(
        context: items, calendar: calendar, reminders: reminders, notes: notes, habits: habits, contacts: contacts,
        facts: facts, webSearch: webSearch),
      tools: ToolRunner(database: database, connector: configuration.toolConnector, logger: logger))
    self.calendar = calendar
    self.reminders = reminders
    self.notes = notes
    self.habits = habits
    self.contacts = contacts
    self.facts = facts
    self.accounts = AccountService(
      database: database, folder: paths.home.appendingPathComponent("accounts", isDirectory: true),
      timeZone: timeZone, clock: configuration.clock, logger: logger)
    self.backups = BackupService(database: database, paths: paths, now: configuration.clock, logger: logger)
    self.devices = DeviceService(database: database, clock: configuration.clock, logger: logger)
    self.push = PushService(
      database: database, folder: paths.push,
      clock: configuration.clock, logger: logger)
    self.notices = NoticeService(context: items, calendar: calendar, reminders: reminders, habits: habits)
    self.automations = AutomationService(context: items)
    self.actions = actions
    let memory = MemoryService(
      database: database, embedder: embedder, notes: notes, facts: facts,
      documentsFolder: paths.home.appendingPathComponent("documents", isDirectory: true), logger: logger)
    self.memory = memory
    let known = KnownItems(
      calendar: calendar, reminders: reminders, notes: notes, habits: habits, contacts: contacts,
      clock: configuration.clock, logger: logger)
    let answerGuard = AnswerGuard(
      actions: actions, known: known,
      digest: DataDigest(calendar: calendar, reminders: reminders, habits: habits, logger: logger),
      aboutUser: { try ([memory.persona()] + facts.holding().map(\.text)).joined(separator: "\n") },
      clock: configuration.clock, timeZone: timeZone, dayFirst: configuration.dayFirst,
      record: Self.recorder(database, logger: logger), logger: logger)
    self.answerGuard = answerGuard
    let drafter = TurnDrafter(
      actions: actions, known: known, intents: IntentReader(embedder: embedder, logger: logger),
      database: database, clock: configuration.clock, timeZone: timeZone, dayFirst: configuration.dayFirst,
      logger: logger)
    let hooks = ChatService.ActionHooks(
      grammar: {
        let tools = actions.tools.callable()
        return tools.isEmpty
          ? (ActionGrammar.grammar(), ActionGrammar.triggerPattern())
          : (ActionGrammar.grammar(tools: tools), ActionGrammar.triggerPattern(kinds: ActionKind.allCases))
      },
      tools: {
        let tools = actions.tools.callable()
        return tools.isEmpty ? nil : ActionInstructions.toolLines(tools)
      },
      process: { message, texts in
        await Self.process(message, texts, keptIn: message.sessionID, actions: actions, logger: logger)
      },
      draft: { request, model, session in await drafter.draft(request, model: model, session: session) },
      check: { answer, model in await answerGuard.check(answer, model: model) },
      preparing: { request in
        Self.preparingWords(
          request, tools: actions.tools.callable(), today: LocalDate(configuration.clock(), in: timeZone),
          dayFirst: configuration.dayFirst)
      })
    let memoryHooks = ChatService.MemoryHooks(
      context: { question, session, model in
        await memory.context(for: question, session: session, for: model)
      },
      remember: { session in await Engine.remember(session, in: memory, logger: logger) },
      // With actions on, each statement was read as its turn ran, and what the user undid or forgot stays so.
      keepFacts: { [actionsOn = chat.actions, dayFirst = configuration.dayFirst] messages in
        guard !actionsOn else { return }
        Engine.keepFacts(told: messages, in: facts, database: database, dayFirst: dayFirst, logger: logger)
      })
    var unkept = hooks
    unkept.process = { message, texts in
      await Self.process(message, texts, keptIn: nil, actions: actions, logger: logger)
    }
    // The look-ups a replaced answer runs are logged without a session too.
    unkept.check = { answer, model in
      var answer = answer
      answer.message = nil
      return await answerGuard.check(answer, model: model)
    }
    self.unkeptHooks = (
      unkept,
      ChatService.MemoryHooks(
        context: { question, _, model in await memory.context(for: question, session: nil, for: model) },
        remember: { _ in })
    )
    var chat = chat
    chat.conversationStates = chat.conversationStates ?? paths.conversationStates
    self.chat = ChatService(
      database: database, model: measured, configuration: chat, actionHooks: hooks, memoryHooks: memoryHooks,
      now: configuration.clock, logger: logger)
  }

  /// Opens the profile and, when the configuration asks for one, loads the model.
  ///
  /// An engine that loads a model may write answers, so it holds the profile lock shared; if no other
  /// process holds it, it first repairs what a crash left (answers marked "generating" become
  /// "interrupted") and prunes old sessions by the history policy.
  /// - Throws: `StoreError` for a database that cannot be opened; ``ModelResolutionError`` when no model is
  ///   named and the default one is not installed; ``ModelRegistryError`` when a named or chosen model cannot be
  ///   used; the model's own typed error when it cannot be loaded.
  public static func open(_ configuration: EngineConfiguration) async throws -> Engine {
    switch configuration.model {
    case .none:
      return try open(configuration, model: nil)
    case .file(let path, let contextSize, let threads, let chatTemplate, let rpcServers, let parallel, let gpuLayers):
      let resolved = try ModelResolver(paths: configuration.paths, environment: configuration.environment)
        .resolveModel(explicit: path)
      // The profile is checked (and repaired) before the slower model load, so a bad database fails fast.
      let (database, lock) = try openProfile(configuration, generating: true)
      let webSearch = try initialWebSearch(configuration, database: database)
      // Saved runtime settings, with this command's own flags over them.
      let runtime = try database.setting(runtimeKey, as: RuntimeSettings.self) ?? .preset(.balanced)
      var options = loadOptions(
        path: resolved.path, entry: resolved.entry, settings: runtime,
        base: LocalModelOptions(path: resolved.path, chatTemplate: chatTemplate))
      if let contextSize { options.contextSize = contextSize }
      if let threads { options.threads = threads }
      if let parallel { options.parallel = parallel }
      if let gpuLayers { options.gpuLayers = gpuLayers }
      options.rpcServers = rpcServers
      let choice = LocalModelHost.Choice(options: options, id: resolved.entry?.id)
      let host = LocalModelHost(
        active: choice, loaded: nil, environment: configuration.environment,
        record: recorder(database, logger: configuration.logger), logger: configuration.logger)
      // Loaded now, so that a model that cannot be loaded fails the command that asked for it.
      if configuration.loadsModelAtOpen { try await host.prepare() }
      return Engine(
        configuration: configuration, paths: configuration.paths, database: database, host: host,
        chat: configuration.chat, lock: lock,
        timeZone: configuration.timeZone, webSearch: webSearch,
        embedder: LocalEmbedder(path: configuration.embeddingModelPath, gpuLayers: options.gpuLayers),
        remote: try initialRemote(configuration, database: database))
    }
  }

  /// Runs an answer's blocks and records them, under its session when the turn is kept (`keptIn`), without
  /// one when it is not. A failure to record is shown as no cards; the answer itself stands either way.
  private static func process(
    _ message: StoredMessage, _ texts: TurnTexts, keptIn session: UUID?, actions: ActionService, logger: Logger
  ) async -> [ActionRecord] {
    do {
      return try await actions.process(
        answer: message.content, session: session, message: session == nil ? nil : message.id,
        userText: texts.request, read: texts.read, earlier: texts.earlier, unattended: texts.unattended,
        afterToolResults: texts.afterToolResults)
    } catch {
      logger.error("an answer's actions could not be recorded", metadata: ["error": "\(ErrorKind.of(error))"])
      return []
    }
  }

  /// Where figures go: the profile's telemetry, rolling and capped.
  static func recorder(
    _ database: HearthDatabase, logger: Logger = .discarding
  ) -> @Sendable (TelemetryRecord) -> Void {
    { record in
      // Figures are a side record: a turn or a load never fails because one could not be kept.
      do {
        try database.recordTelemetry(record)
      } catch {
        logger.warning(
          "a figure could not be recorded", metadata: ["kind": "\(record.kind)", "error": "\(ErrorKind.of(error))"])
      }
    }
  }

  /// The figures of the generation that ended last, from whichever model answered it.
  public var lastUsage: GenerationUsage? {
    routed?.lastUsage ?? model?.lastUsage
  }

  /// Which model answered the turn generated last: the local one unless a remote server did.
  public var lastProvider: Provider? {
    routed?.lastProvider ?? (model == nil ? nil : .local)
  }

  /// Opens the profile with a model that is already loaded (shared by several engines, as tests and
  /// benchmarks do), or with none.
  public static func open(_ configuration: EngineConfiguration, model: LocalModel?) throws -> Engine {
    let (database, lock) = try openProfile(configuration, generating: model != nil)
    let host = model.map {
      LocalModelHost(
        active: LocalModelHost.Choice(options: $0.options), loaded: $0, environment: configuration.environment,
        record: recorder(database, logger: configuration.logger), logger: configuration.logger)
    }
    return Engine(
      configuration: configuration, paths: configuration.paths, database: database, host: host,
      chat: configuration.chat, lock: lock,
      timeZone: configuration.timeZone, webSearch: try initialWebSearch(configuration, database: database),
      embedder: configuration.sharedEmbedder ?? LocalEmbedder(path: configuration.embeddingModelPath),
      remote: try initialRemote(configuration, database: database))
  }

  /// Opens the profile with `model` answering its turns as it is: a model that is not a GGUF file of this
  /// machine (an app's own provider, or a scripted one in tests). Turns, leases and the line work as with a
  /// local model, one request at a time; choosing, loading, routing models and parallel slots do not apply to
  /// it (a GGUF model of this machine opens with ``open(_:model:)``).
  /// - Throws: `StoreError` for a database that cannot be opened.
  public static func open(_ configuration: EngineConfiguration, answering model: any ChatModel) throws -> Engine {
    let (database, lock) = try openProfile(configuration, generating: true)
    return Engine(
      configuration: configuration, paths: configuration.paths, database: database, host: nil, given: model,
      chat: configuration.chat, lock: lock,
      timeZone: configuration.timeZone, webSearch: try initialWebSearch(configuration, database: database),
      embedder: configuration.sharedEmbedder ?? LocalEmbedder(path: configuration.embeddingModelPath),
      remote: try initialRemote(configuration, database: database))
  }

  /// The database and, for an engine that may write answers, the profile lock (with repair and pruning).
  private static func openProfile(
    _ configuration: EngineConfiguration, generating: Bool
  ) throws -> (HearthDatabase, ProfileLock?) {
    guard generating else {
      // A command that only reads or edits the data (notes add, an import) opens it for writing as well: the
      // same read-only check first, so a damaged database is never written to by any command.
      try ProfileBackup(paths: configuration.paths).checkAtStart(logger: configuration.logger)
      return (try HearthDatabase(path: configuration.paths.database.path), nil)
    }
    // Alone with the profile, the file is checked read-only before anything opens it for writing (opening
    // writes), so a damaged database is never written to; then what a crash left is repaired.
    var opened: HearthDatabase?
    let lock = try ProfileLock(path: configuration.paths.generationLock) {
      try ProfileBackup(paths: configuration.paths).checkAtStart(logger: configuration.logger)
      let database = try HearthDatabase(path: configuration.paths.database.path)
      try database.repairAfterCrash()
      // The journal CalDAV sync tokens count keeps its newest entries; an older token makes its client start over.
      try database.pruneServedChanges(keeping: CollectionServer.journalLength)
      opened = database
    }
    let database = try opened ?? HearthDatabase(path: configuration.paths.database.path)
    if let policy = configuration.historyPolicy { try database.prune(policy) }
    return (database, lock)
  }

  // MARK: Settings

  /// The user's saved chat settings, or the defaults.
  public func chatSettings() throws -> ChatSettings {
    try database.chatSettings()
  }

  /// Checks and saves the user's chat settings.
  /// - Throws: `InvalidParameterError` naming a value out of range; `StoreError` when saving fails.
  public func setChatSettings(_ settings: ChatSettings) throws {
    try settings.validate()
    try database.setChatSettings(settings)
  }

}
