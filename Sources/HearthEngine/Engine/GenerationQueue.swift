/// First come, first served access to the one model that answers. A request waits its turn, hears its
/// place in line while it waits, and leaves the line if it is cancelled.
public actor GenerationQueue {
  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Void, any Error>
    let onPosition: @Sendable (Int) -> Void
  }

  private var holder: UInt64?
  private var waiters: [Waiter] = []
  private var nextID: UInt64 = 0

  public init() {}

  /// Requests running or waiting.
  public var depth: Int { waiters.count + (holder == nil ? 0 : 1) }

  /// Runs `body` once every request that came earlier is done. While waiting, `onPosition` hears the
  /// number of requests ahead (1 when next), whenever it changes.
  /// - Throws: `CancellationError` when the task is cancelled while waiting, or what `body` throws.
  public func run<Value: Sendable>(
    onPosition: @escaping @Sendable (Int) -> Void = { _ in },
    _ body: @Sendable () async throws -> Value
  ) async throws -> Value {
    let ticket = try await enter(onPosition: onPosition)
    defer { leave(ticket) }
    return try await body()
  }

  /// A place at the head of the line, held until ``leave(_:)``.
  public struct Ticket: Sendable, Hashable {
    fileprivate let id: UInt64
  }

  /// Waits until every request that came earlier is done and returns the ticket that holds the model;
  /// give it back with ``leave(_:)``. While waiting, `onPosition` hears the number of requests ahead.
  /// - Throws: `CancellationError` when the task is cancelled while waiting.
  public func enter(onPosition: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> Ticket {
    Ticket(id: try await wait(onPosition: onPosition))
  }

  /// Gives the model to the next in line.
  public func leave(_ ticket: Ticket) {
    guard holder == ticket.id else { return }
    holder = nil
    guard !waiters.isEmpty else { return }
    let next = waiters.removeFirst()
    holder = next.id
    next.continuation.resume()
    announcePositions()
  }

  private func wait(onPosition: @escaping @Sendable (Int) -> Void) async throws -> UInt64 {
    try Task.checkCancellation()
    let id = nextID
    nextID += 1
    if holder == nil, waiters.isEmpty {
      holder = id
      return id
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        waiters.append(Waiter(id: id, continuation: continuation, onPosition: onPosition))
        onPosition(waiters.count)
      }
    } onCancel: {
      Task { await self.abandon(id) }
    }
    return id
  }

  private func abandon(_ id: UInt64) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    let waiter = waiters.remove(at: index)
    waiter.continuation.resume(throwing: CancellationError())
    announcePositions()
  }

  private func announcePositions() {
    for (index, waiter) in waiters.enumerated() { waiter.onPosition(index + 1) }
  }
}
