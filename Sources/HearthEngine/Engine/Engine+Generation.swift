public import HearthCore

/// The model, held by one request until it gives it back with ``Engine/release(_:)``. Only the engine pairs
/// the two; surfaces hold the model through ``Engine/withModel(named:onPosition:_:)``, ``ModelLease`` or a
/// turn.
struct ModelReservation: Sendable {
  /// The line the model was taken from.
  let line: GenerationQueue
  /// The local model held; `nil` for a model the engine was given as it is.
  let local: LocalModel?
  let ticket: GenerationQueue.Ticket
  /// The model to generate with (its generations' figures are recorded).
  let model: any ChatModel
  /// Held for a model the request named in place of the chosen one: only `model` generates with it.
  var isNamed = false
}

extension Engine {
  /// The model that answers.
  /// - Throws: ``ChatError/modelNotReady`` when the engine was opened without one.
  public func requireModel() throws(ChatError) -> any ChatModel {
    guard let measured else { throw .modelNotReady }
    return measured
  }

  /// Requests the local model answers at once (its slots): the loaded model's, else what the chosen one will
  /// load with.
  public var parallelSlots: Int {
    if let host { return host.loaded?.slotCount ?? max(1, host.active.options.parallel ?? 1) }
    return 1
  }

  /// Returns once the local model has nothing to do and has written what going idle writes (each chat's
  /// evaluated state): a command calls it before its process ends, so the next one finds the chat's state.
  public func settleWrites() async {
    await host?.loaded?.settle()
    await given?.settle()
  }

  /// Requests running on the model or waiting for it.
  public var queueDepth: Int {
    get async { await (host?.line ?? givenLine).depth }
  }

  /// Waits until every request that came earlier has finished, then holds the model for the caller: the
  /// chosen one, or the installed chat model `name` names (loaded in its place, within the memory budget).
  /// While waiting, `onPosition` hears the number of requests ahead (1 when next) whenever it changes.
  /// - Throws: ``ChatError/modelNotReady`` without a model; ``ModelRegistryError`` for a name that is no
  ///   installed chat model; the loader's error when the model cannot be loaded; `CancellationError` when the
  ///   caller is cancelled while waiting (its place is given up).
  func reserveModel(
    named name: String? = nil, routed allowsParked: Bool = false,
    onPosition: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> ModelReservation {
    guard let host else { return try await reserveGiven(named: name, onPosition: onPosition) }
    let named = try name.flatMap { try chatModelChoice(named: $0) }
    var ticket = try await host.line.enter(onPosition: onPosition)
    // A turn the trusted remote server answers holds the line without loading the weights let go for it.
    if allowsParked, named == nil, let routed, let measured, await routed.keepsLocalParked() {
      return ModelReservation(line: host.line, local: nil, ticket: ticket, model: measured)
    }
    do {
      // The active model is read in line: a choice made by a request ahead applies to this one.
      var found = try await host.modelBesideOthers(for: named ?? host.active)
      if found == nil {
        // Another model is loaded: replacing it waits until no request uses it, and holds the line alone.
        await host.line.leave(ticket)
        ticket = try await host.line.enter(alone: true, onPosition: onPosition)
        found = try await host.model(for: named ?? host.active)
      }
      guard let local = found else { throw ChatError.modelNotReady }
      return ModelReservation(
        line: host.line, local: local, ticket: ticket,
        model: MeasuredChatModel(LocalModelLane(local), record: Self.recorder(database, logger: logger)),
        isNamed: named != nil)
    } catch {
      await host.line.leave(ticket)
      throw error
    }
  }

  /// The given model, in its line; a request may name it, but no other.
  private func reserveGiven(
    named name: String?, onPosition: @escaping @Sendable (Int) -> Void
  ) async throws -> ModelReservation {
    guard let given, let measured else { throw ChatError.modelNotReady }
    if let name, name != given.name { throw ModelRegistryError.unknownModel(name, known: [given.name]) }
    let ticket = try await givenLine.enter(onPosition: onPosition)
    do {
      // Made ready in line, as a local model is loaded there: a failure is the request's error.
      try await measured.prepare()
    } catch {
      await givenLine.leave(ticket)
      throw error
    }
    return ModelReservation(line: givenLine, local: nil, ticket: ticket, model: measured)
  }

  /// Gives the model back. The next request is let in only once the generation made under this
  /// reservation has really ended, not merely when its consumer stopped listening, so a request that
  /// stopped early (a stop sequence, a client that left) never overlaps the next one.
  func release(_ reservation: ModelReservation) async {
    await reservation.model.settle()
    await reservation.line.leave(reservation.ticket)
  }

  /// Runs `body` with the model held, waiting for every request that came earlier first.
  public func withModel<Value: Sendable>(
    named name: String? = nil, onPosition: @escaping @Sendable (Int) -> Void = { _ in },
    _ body: (any ChatModel) async throws -> Value
  ) async throws -> Value {
    try await leaseModel(named: name, onPosition: onPosition).finish(body)
  }
}
