import DequeModule
import Foundation
public import HearthCore

/// The one thread on which every llama.cpp decode of the process runs.
///
/// Models may be resident side by side, but their computations never overlap: each uses all cores, so
/// running two at once would only make both slower. Work is queued as *steps*; a generation is one step per
/// token, re-queued behind whatever else is waiting, so concurrent generations advance in turn. The blocking
/// C work therefore never occupies Swift's cooperative thread pool.
public final class DecodeExecutor: @unchecked Sendable {
  /// The executor shared by every model in the process.
  public static let shared = DecodeExecutor()

  /// A unit of work; returns `true` to be run again after the others waiting.
  typealias Step = () -> Bool

  private let condition = NSCondition()
  // Guarded by `condition`. A step leaves the queue when it runs, so a finished generation (its sampler,
  // its session) is released at once, however long other generations keep the thread busy.
  private var queue = Deque<Step>()
  private var started = false

  private init() {}

  /// Queues a step.
  func enqueue(_ step: @escaping Step) {
    condition.lock()
    queue.append(step)
    if !started {
      started = true
      let thread = Thread { [unowned self] in self.runLoop() }
      thread.name = "hearth.decode"
      thread.stackSize = 8 << 20
      thread.start()
    }
    condition.signal()
    condition.unlock()
  }

  /// Runs `work` once on the executor thread and returns its result.
  func perform<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
      enqueue {
        do throws(E) {
          continuation.resume(returning: .success(try work()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
        return false
      }
    }
    return try result.get()
  }

  private func runLoop() {
    while true {
      condition.lock()
      while queue.isEmpty { condition.wait() }
      let step = queue.removeFirst()
      condition.unlock()

      if step() {
        condition.lock()
        queue.append(step)
        condition.unlock()
      }
    }
  }
}

extension DecodeExecutor: HeavyWorkLine {
  /// Runs `work` as one step between the decodes of whatever models are generating.
  public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await perform(work)
  }
}
