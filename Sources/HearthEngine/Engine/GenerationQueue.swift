/// First come, first served access to the model that answers. As many requests as the model has slots hold
/// it at once (they are decoded together, one batch per step); loading, switching or unloading the model holds
/// it alone. A request waits its turn, hears its place in line while it waits, and leaves the line if it is
/// cancelled.
public actor GenerationQueue {
  private struct Waiter {
    let id: UInt64
    let alone: Bool
    let continuation: CheckedContinuation<Void, any Error>
    let onPosition: @Sendable (Int) -> Void
  }

  private var holders: Set<UInt64> = []
  private var heldAlone = false
  private var waiters: [Waiter] = []
  private var nextID: UInt64 = 0
  /// Requests that may hold the model at once.
  public private(set) var capacity: Int

  /// A line letting `capacity` requests hold the model at once.
  public init(capacity: Int = 1) {
    self.capacity = max(1, capacity)
  }

  /// Requests running or waiting.
  public var depth: Int { waiters.count + holders.count }

  /// Lets `capacity` requests hold the model at once from now on (when a model with that many slots loads).
  public func setCapacity(_ capacity: Int) {
    self.capacity = max(1, capacity)
    admitWaiting()
  }

  /// Runs `body` holding the model alone, once every request that came earlier is done. While waiting,
  /// `onPosition` hears the number of requests ahead (1 when next), whenever it changes.
  /// - Throws: `CancellationError` when the task is cancelled while waiting, or what `body` throws.
  public func run<Value: Sendable>(
    onPosition: @escaping @Sendable (Int) -> Void = { _ in },
    _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    let ticket = try await enter(alone: true, onPosition: onPosition)
    defer { leave(ticket) }
    return try await body()
  }

  /// A hold on the model, kept until ``leave(_:)``.
  public struct Ticket: Sendable, Hashable {
    fileprivate let id: UInt64
  }

  /// Waits until every request that came earlier has its turn and a place is free (or, `alone`, until no one
  /// else holds the model), and returns the ticket that holds it; give it back with ``leave(_:)``. While
  /// waiting, `onPosition` hears the number of requests ahead.
  /// - Throws: `CancellationError` when the task is cancelled while waiting.
  public func enter(
    alone: Bool = false, onPosition: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws
    -> Ticket
  {
    Ticket(id: try await wait(alone: alone, onPosition: onPosition))
  }

  /// Gives a hold back and lets in whoever is next.
  public func leave(_ ticket: Ticket) {
    guard holders.remove(ticket.id) != nil else { return }
    if holders.isEmpty { heldAlone = false }
    admitWaiting()
  }

  private func canAdmit(alone: Bool) -> Bool {
    alone ? holders.isEmpty : !heldAlone && holders.count < capacity
  }

  private func wait(alone: Bool, onPosition: @escaping @Sendable (Int) -> Void) async throws -> UInt64 {
    try Task.checkCancellation()
    let id = nextID
    nextID += 1
    if waiters.isEmpty, canAdmit(alone: alone) {
      holders.insert(id)
      heldAlone = alone
      return id
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        waiters.append(Waiter(id: id, alone: alone, continuation: continuation, onPosition: onPosition))
        onPosition(waiters.count)
      }
    } onCancel: {
      Task { await self.abandon(id) }
    }
    return id
  }

  /// Lets in waiters from the front of the line while they fit; the first that does not fit holds back the
  /// rest, so no one is passed.
  private func admitWaiting() {
    var admitted = false
    while let next = waiters.first, canAdmit(alone: next.alone) {
      waiters.removeFirst()
      holders.insert(next.id)
      heldAlone = next.alone
      next.continuation.resume()
      admitted = true
    }
    if admitted { announcePositions() }
  }

  private func abandon(_ id: UInt64) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    let waiter = waiters.remove(at: index)
    waiter.continuation.resume(throwing: CancellationError())
    // One that waited to be alone may have held back others that fit.
    admitWaiting()
    announcePositions()
  }

  private func announcePositions() {
    for (index, waiter) in waiters.enumerated() { waiter.onPosition(index + 1) }
  }
}
