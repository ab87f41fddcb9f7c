public import Foundation
public import HearthCore
import HearthStore

/// Where a turn's conversation is kept.
public enum TurnTarget: Sendable, Hashable {
  /// In this saved session.
  case session(UUID)
  /// Nowhere (`hearth ask --no-save`): the turn runs every step a kept one does — drafting, the memory, the
  /// second pass, context fitting, the answer check, telemetry — on a session in a store that lives in memory
  /// for the turn alone. Its actions act on the user's data and are logged without a session; `usesMemory`
  /// says whether the memory is read for it. Nothing of it is remembered.
  case ephemeral(usesMemory: Bool)
}

/// A chat turn as any surface asks for it: the web app, `hearth chat` and `hearth ask` alike.
public struct TurnRequest: Sendable {
  /// Where the turn's conversation is kept.
  public var target: TurnTarget
  /// The session the turn belongs to; `nil` for a turn that is not kept.
  public var session: UUID? {
    if case .session(let id) = target { id } else { nil }
  }
  /// A new message, or a regenerate, edit or continue of one already there.
  public var kind: TurnKind
  /// A system prompt of the caller's own; `nil` for the saved settings' one, or the built-in prompt when none
  /// is saved.
  public var systemPrompt: String?
  /// Sampling and length; `nil` for the saved chat settings.
  public var options: GenerationOptions?
  /// Files attached to a new message (``Engine/attach(_:name:to:)``), whose text the model reads with it.
  public var attachments: [UUID]
  /// Asked with no one waiting (an automation): on a model answering several at once it waits for a slot,
  /// and for room in each batch, behind every turn someone waits on.
  public var isBackground = false

  public init(
    session: UUID, kind: TurnKind, systemPrompt: String? = nil, options: GenerationOptions? = nil,
    attachments: [UUID] = []
  ) {
    (self.target, self.kind, self.systemPrompt, self.options) = (.session(session), kind, systemPrompt, options)
    self.attachments = attachments
  }

  /// A new message answered without keeping the exchange (``TurnTarget/ephemeral(usesMemory:)``).
  public static func ephemeral(
    _ text: String, systemPrompt: String? = nil, options: GenerationOptions? = nil, usesMemory: Bool = true
  ) -> TurnRequest {
    var request = TurnRequest(session: UUID(), kind: .message(text), systemPrompt: systemPrompt, options: options)
    request.target = .ephemeral(usesMemory: usesMemory)
    return request
  }
}

/// What a surface hears while a turn runs, in this order: `loading` (only when the model is not in memory),
/// `queued` (each time its place in line changes), `ready`, then the chat's own events; `failed` ends a turn
/// that could not run.
public enum TurnEvent: Sendable {
  /// The model is not in memory: it is loaded once this turn's place in line comes.
  case loading(model: String)
  /// Requests ahead of this one (1 when next).
  case queued(position: Int)
  /// The model is this turn's; the chat starts now.
  case ready
  /// The turn's own progress: started, sources, thinking, answer, actions, finished.
  case chat(ChatEvent)
  /// The turn could not run: the model could not be loaded or held, the settings could not be read, or the
  /// session refused it (``ChatError``). Nothing after it.
  case failed(any Error)
}

extension Engine {
  /// Checks what can be checked before a turn is promised: the session, the message it names, a model, and a
  /// session that is not already answering.
  /// - Throws: ``ChatError`` or `StoreError`, as ``ChatService/check(_:in:)`` does.
  public func checkTurn(_ request: TurnRequest) async throws {
    guard let session = request.session else {
      // A turn that is not kept asks for a new message only, and has no session to check.
      guard case .message(let text) = request.kind, request.attachments.isEmpty else {
        throw ChatError.unkeptTurnTakesOneMessage
      }
      _ = try ChatService.messageText(text)
      return
    }
    try await chat.check(request.kind, in: session, attachments: request.attachments)
  }

  /// Runs one turn from request to last event: waits for the model in line (saying so), holds it while the
  /// chat generates, and gives it back only once the generation has really ended. `onEvent` hears every
  /// event in order and is awaited; when it throws (the listener is gone) the turn stops there — before it
  /// starts if it had not yet, with what was said kept if it had — and the error is rethrown. A turn that
  /// fails is reported as ``TurnEvent/failed(_:)``, never thrown.
  public func runTurn(
    _ request: TurnRequest, onEvent: (TurnEvent) async throws -> Void
  ) async throws {
    let prompt: String
    var options: GenerationOptions
    let chat: ChatService
    let session: UUID
    let persona: Persona?
    do {
      if request.session == nil { try await checkTurn(request) }
      (chat, session) = try await conversation(for: request.target)
      // A chat started with a persona is answered as it: its prompt, its sampling, its model.
      persona = try request.session.flatMap { try database.persona(ofSession: $0) }
      if let persona, request.systemPrompt != nil {
        // Its own prompt is who it is: another in its place would leave half a persona.
        throw PersonaError.invalid(
          field: "system_prompt", "\(persona.name) answers this chat by its own prompt; change the persona instead")
      }
      let settings = try chatSettings()
      // A chat started from a template is answered by its instructions, opening the prompt as a persona's do.
      let instructions = persona == nil ? try request.session.flatMap { try database.instructions(ofSession: $0) } : nil
      if instructions != nil, request.systemPrompt != nil {
        throw ChatTemplateError.invalid(
          field: "system_prompt", "this chat is answered by the instructions it was started with")
      }
      let parts = systemPromptParts(
        custom: request.systemPrompt ?? (persona == nil && instructions == nil ? settings.systemPrompt : nil),
        persona: persona ?? instructions.map { Persona(name: "Hearth", systemPrompt: $0) },
        question: try question(of: request))
      prompt = parts.text
      options = request.options ?? (persona?.preset.map(settings.sampled(as:)) ?? settings).generationOptions
      options.reusablePrefix = parts.reusablePrefix
      options.isBackground = request.isBackground
      if request.options == nil, case .message(let text) = request.kind {
        options.draftTokens = DraftPolicy.draftTokens(forUserText: text)
      }
    } catch {
      try await onEvent(.failed(error))
      return
    }
    // From here until the chat starts, a stop is kept for the turn (it then ends at once, stopped), and the
    // session counts as answering.
    let waiting = await chat.turnWaits(in: session)
    // Images seen by a vision model are looked at again with the question they come with: once the turn is
    // promised, while the session counts as answering (a stop meanwhile ends the turn as it starts).
    if case .message(let text) = request.kind, !request.attachments.isEmpty {
      await readImagesAgain(request.attachments, asking: text)
    }
    do {
      try await waitAndRun(
        request, chat: chat, session: session, waiting: waiting, prompt: prompt, options: options,
        model: persona?.model, onEvent: onEvent)
    } catch {
      await chat.turnStopsWaiting(waiting, in: session)
      throw error
    }
    await chat.turnStopsWaiting(waiting, in: session)
  }

  /// The rest of ``runTurn(_:onEvent:)`` once the turn is taken in: the line, then the chat.
  private func waitAndRun(
    _ request: TurnRequest, chat: ChatService, session: UUID, waiting: UUID, prompt: String,
    options: GenerationOptions, model name: String?, onEvent: (TurnEvent) async throws -> Void
  ) async throws {
    // The model was let go (idle, memory pressure) or never loaded, or the turn names another: taking the
    // line loads it, and that wait is said for what it is.
    // From the first turn on, the remote server (if one is set up) is watched in the background.
    routed?.startWatching()
    if let host {
      let named: LocalModelHost.Choice?
      do {
        named = try name.flatMap { try chatModelChoice(named: $0) }
      } catch {
        await chat.turnStopsWaiting(waiting, in: session)
        try await onEvent(.failed(error))
        return
      }
      let wanted = named ?? host.active
      // A turn the remote server answers leaves the local weights where they are.
      let parked = named == nil ? await routed?.keepsLocalParked() ?? false : false
      if !parked, host.loaded?.options.loadsTheSameModel(as: wanted.options) != true {
        try await onEvent(.loading(model: wanted.fileName))
      }
    }
    let reservation: ModelReservation
    do {
      reservation = try await waitInLine(named: name) { try await onEvent(.queued(position: $0)) }
    } catch let failure as TurnListenerGone {
      throw failure.error
    } catch {
      await chat.turnStopsWaiting(waiting, in: session)
      try await onEvent(.failed(error))
      return
    }
    var listenerError: (any Error)?
    var failure: (any Error)?
    do {
      // A listener that left while waiting must not start a turn.
      try await onEvent(.ready)
      do {
        let events: AsyncStream<ChatEvent>
        do {
          events = try await chat.start(
            request.kind, in: session, systemPrompt: prompt, options: options,
            attachments: request.attachments, model: reservation.isNamed ? reservation.model : nil)
        } catch {
          await chat.turnStopsWaiting(waiting, in: session)
          throw error
        }
        // Started: a stop now reaches the running turn itself.
        await chat.turnStopsWaiting(waiting, in: session)
        // Leaving this loop drops the stream, which stops the generation; the release below waits for it to
        // settle before the next request is let in.
        for await event in events {
          do { try await onEvent(.chat(event)) } catch {
            listenerError = error
            break
          }
        }
      } catch {
        failure = error
      }
    } catch {
      listenerError = error
    }
    await release(reservation)
    if let listenerError { throw listenerError }
    if let failure { try await onEvent(.failed(failure)) }
  }

  /// What the user asks in this turn: a new message's or an edit's text, or — for an answer written again or
  /// carried on — the message it answers.
  private func question(of request: TurnRequest) throws -> String? {
    if let text = request.kind.newText { return text }
    guard let session = request.session else { return nil }
    let answer: UUID
    switch request.kind {
    case .regenerate(let id), .continueAnswer(let id): answer = id
    case .message, .edit: return nil
    }
    let messages = try database.messages(in: session)
    guard let position = messages.firstIndex(where: { $0.id == answer }) else { return nil }
    return messages[..<position].last { $0.role == .user }?.content
  }

  /// The chat service and session a turn runs in: the profile's own, or — for a turn that is not kept — a
  /// service of the same hooks on a store in memory, gone when the turn is (its conversation states too).
  private func conversation(for target: TurnTarget) async throws -> (ChatService, UUID) {
    switch target {
    case .session(let id):
      return (chat, id)
    case .ephemeral(let usesMemory):
      var configuration = chatConfiguration
      configuration.conversationStates = nil
      let unkept = ChatService(
        database: try HearthDatabase.inMemory(), model: measured, configuration: configuration,
        actionHooks: unkeptHooks.actions, memoryHooks: usesMemory ? unkeptHooks.memory : nil,
        now: self.configuration.clock, logger: logger)
      return (unkept, try await unkept.newSession().id)
    }
  }

  /// Enters the line, reporting each new position; a report that throws gives up the place.
  private func waitInLine(
    named name: String?, report: (Int) async throws -> Void
  ) async throws -> ModelReservation {
    let (positions, continuation) = AsyncStream.makeStream(of: Int.self)
    let entering = Task {
      defer { continuation.finish() }
      return try await reserveModel(named: name, routed: true) { continuation.yield($0) }
    }
    do {
      for await position in positions { try await report(position) }
    } catch {
      entering.cancel()
      if let reservation = try? await entering.value { await release(reservation) }
      throw TurnListenerGone(error: error)
    }
    return try await entering.value
  }
}

/// The listener's own error while the turn waited in line, kept apart from the line's failures.
private struct TurnListenerGone: Error {
  var error: any Error
}
