import Foundation
public import HearthCore

/// A line of its own: one thread that runs jobs in order. For using speech recognition without an engine
/// (the engine hands its recognizer the line its language models decode on).
public final class OwnThreadLine: HeavyWorkLine, @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var jobs: [@Sendable () -> Void] = []
  private var started = false
  private let name: String

  /// A line whose thread, named `name`, starts with its first job.
  public init(name: String = "hearth.speech") {
    self.name = name
  }

  public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      condition.lock()
      jobs.append { continuation.resume(with: Result { try work() }) }
      if !started {
        started = true
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
      }
      condition.signal()
      condition.unlock()
    }
  }

  private func loop() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}
