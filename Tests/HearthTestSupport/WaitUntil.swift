import Testing

/// Polls `condition` every 20 ms until it holds, or records an issue when `seconds` run out; for what happens
/// out of the test's sight (a background task, another process) with no event to await.
public func waitUntil(seconds: Double, _ condition: @Sendable () async throws -> Bool) async throws {
  let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(20))
  }
  Issue.record("condition not met within \(seconds) s")
}
