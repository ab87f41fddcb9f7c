/// How far a download has come.
public struct DownloadProgress: Sendable, Hashable {
  /// Bytes of the file on disk so far, including those kept from an earlier attempt.
  public var received: UInt64
  /// The file's size, when the server said.
  public var total: UInt64?
  /// Bytes that were already there when this attempt began (a resumed download).
  public var resumedFrom: UInt64
  /// Transfer rate of this run, in bytes per second.
  public var bytesPerSecond: Double
  /// Whether the transfer is over (hash and install follow).
  public var isComplete: Bool

  /// Creates a progress report.
  public init(received: UInt64, total: UInt64?, resumedFrom: UInt64, bytesPerSecond: Double, isComplete: Bool) {
    self.received = received
    self.total = total
    self.resumedFrom = resumedFrom
    self.bytesPerSecond = bytesPerSecond
    self.isComplete = isComplete
  }

  /// The fraction done, when the size is known.
  public var fraction: Double? {
    total.flatMap { $0 > 0 ? min(1, Double(received) / Double($0)) : nil }
  }

  /// Seconds left at the current rate, when it can be told.
  public var secondsLeft: Double? {
    guard let total, bytesPerSecond > 0, total >= received else { return nil }
    return Double(total - received) / bytesPerSecond
  }
}
