import Logging

extension Logger {
  /// The value `body` gives, or `nil` after one warning that `what` failed, naming the error's kind (never its
  /// message, which may quote the user's words). For a step whose failure the caller can go on without (a title
  /// not re-read, a record not remembered) but that an operator must hear of, where a bare optional try would hide it.
  func attempt<Value>(_ what: String, _ body: () throws -> Value) -> Value? {
    do {
      return try body()
    } catch {
      warning("\(what) failed", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }

  /// The asynchronous form of ``attempt(_:_:)``.
  func attempt<Value>(_ what: String, _ body: () async throws -> Value) async -> Value? {
    do {
      return try await body()
    } catch {
      warning("\(what) failed", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }
}
