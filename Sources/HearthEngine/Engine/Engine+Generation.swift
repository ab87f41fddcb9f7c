public import HearthCore

/// The model, held by one request until it gives it back with ``Engine/release(_:)``. Only the engine pairs
/// the two; surfaces hold the model through ``Engine/withModel(named:onPosition:_:)``, ``ModelLease`` or a
/// turn.
struct ModelReservation: Sendable {
  let host: LocalModelHost
  let local: LocalModel
  let ticket: GenerationQueue.Ticket
  /// The model to generate with (its generations' figures are recorded).
  let model: any ChatModel
}

extension Engine {
  /// The model that answers.
  /// - Throws: ``ChatError/modelNotReady`` when the engine was opened without one.
  public func requireModel() throws(ChatError) -> any ChatModel {
    guard let measured else { throw .modelNotReady }
    return measured
  }

  /// Requests running on the model or waiting for it.
  public var queueDepth: Int {
    get async { await host?.line.depth ?? 0 }
  }

  /// Waits until every request that came earlier has finished, then holds the model for the caller: the
  /// chosen one, or the installed chat model `name` names (loaded in its place, within the memory budget).
  /// While waiting, `onPosition` hears the number of requests ahead (1 when next) whenever it changes.
  /// - Throws: ``ChatError/modelNotReady`` without a model; ``ModelRegistryError`` for a name that is no
  ///   installed chat model; the loader's error when the model cannot be loaded; `CancellationError` when the
  ///   caller is cancelled while waiting (its place is given up).
  func reserveModel(
    named name: String? = nil, onPosition: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> ModelReservation {
    guard let host else { throw ChatError.modelNotReady }
    let named = try name.flatMap { try chatModelChoice(named: $0) }
    let ticket = try await host.line.enter(onPosition: onPosition)
    do {
      let local = try await host.model(for: named ?? host.active)
      return ModelReservation(
        host: host, local: local, ticket: ticket,
        model: MeasuredChatModel(local, record: Self.recorder(database, logger: logger)))
    } catch {
      await host.line.leave(ticket)
      throw error
    }
  }

  /// Gives the model back. The next request is let in only once the generation made under this
  /// reservation has really ended, not merely when its consumer stopped listening, so a request that
  /// stopped early (a stop sequence, a client that left) never overlaps the next one.
  func release(_ reservation: ModelReservation) async {
    await reservation.local.settle()
    await reservation.host.line.leave(reservation.ticket)
  }

  /// Runs `body` with the model held, waiting for every request that came earlier first.
  public func withModel<Value: Sendable>(
    named name: String? = nil, onPosition: @escaping @Sendable (Int) -> Void = { _ in },
    _ body: (any ChatModel) async throws -> Value
  ) async throws -> Value {
    try await leaseModel(named: name, onPosition: onPosition).finish(body)
  }
}
