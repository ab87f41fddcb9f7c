public import Testing

/// Tests that take the whole machine — the real models (every decode in the process runs on one thread), a
/// live server, child processes — run one at a time even when `swift test` runs the rest in parallel: on
/// two cores, several of them at once only make each other miss their time limits.
///
/// Put it on a suite: each of its tests (each case of a parameterized one) waits for the heavy test before
/// it to finish.
public struct HeavyTest: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> HeavyTest? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    await HeavyLine.shared.enter()
    do {
      try await function()
    } catch {
      await HeavyLine.shared.leave()
      throw error
    }
    await HeavyLine.shared.leave()
  }
}

extension Trait where Self == HeavyTest {
  /// Runs alone among heavy tests: see ``HeavyTest``.
  public static var heavy: Self { HeavyTest() }
}

/// First come, first served: one heavy test at a time.
actor HeavyLine {
  static let shared = HeavyLine()

  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func enter() async {
    guard busy else {
      busy = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func leave() {
    guard !waiting.isEmpty else {
      busy = false
      return
    }
    waiting.removeFirst().resume()
  }
}
