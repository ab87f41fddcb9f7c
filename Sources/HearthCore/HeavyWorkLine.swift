/// A line for heavy native work — a model's decode, a transcription — where jobs run one at a time, off
/// Swift's cooperative threads.
///
/// Every such job uses all the cores; running two at once only makes both slower, so the engine hands every
/// model the same line.
public protocol HeavyWorkLine: Sendable {
  /// Runs `work` when its turn comes and returns its result (or rethrows its error).
  func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T
}
