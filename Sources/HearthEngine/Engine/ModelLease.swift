public import HearthCore
import Synchronization

/// The model held for one request across the edge of a response: the checks that decide the response's
/// status run while it is held (``prepare(_:)``), and the response's body then finishes with it
/// (``finish(_:)``). The model is given back exactly once, whichever way the request goes: when `finish`
/// ends, when `prepare` throws, or — for a response that is never written — when the lease is dropped.
public final class ModelLease: Sendable {
  private let engine: Engine
  private let reservation: ModelReservation
  private let returned = Mutex(false)

  init(engine: Engine, reservation: ModelReservation) {
    (self.engine, self.reservation) = (engine, reservation)
  }

  /// The model to generate with (its generations' figures are recorded).
  public var model: any ChatModel { reservation.model }

  /// Runs checks with the model held; when they throw, the model is given back before the error goes on.
  public func prepare<Value>(_ body: (any ChatModel) async throws -> Value) async rethrows -> Value {
    do {
      return try await body(reservation.model)
    } catch {
      await giveBack()
      throw error
    }
  }

  /// Runs the rest of the request with the model held, then gives it back once the generation has really
  /// ended, whether `body` returned or threw.
  public func finish<Value>(_ body: (any ChatModel) async throws -> Value) async rethrows -> Value {
    do {
      let value = try await body(reservation.model)
      await giveBack()
      return value
    } catch {
      await giveBack()
      throw error
    }
  }

  private func giveBack() async {
    guard claimReturn() else { return }
    await engine.release(reservation)
  }

  private func claimReturn() -> Bool {
    returned.withLock { returned in
      defer { returned = true }
      return !returned
    }
  }

  deinit {
    // A response that was dropped before its body ran: the line must not stay blocked behind it.
    guard claimReturn() else { return }
    let (engine, reservation) = (engine, reservation)
    Task { await engine.release(reservation) }
  }
}

extension Engine {
  /// Waits until every request that came earlier has finished, then hands the model over as a lease, for a
  /// response that outlives the handler that asked for it: the chosen model, or the installed chat model
  /// `name` names (loaded in its place). `onPosition` hears the number of requests ahead whenever it changes.
  /// - Throws: ``ChatError/modelNotReady`` without a model; ``ModelRegistryError`` for a name that is no
  ///   installed chat model; the loader's error; `CancellationError` when cancelled while waiting.
  public func leaseModel(
    named name: String? = nil, onPosition: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> ModelLease {
    ModelLease(engine: self, reservation: try await reserveModel(named: name, onPosition: onPosition))
  }
}
