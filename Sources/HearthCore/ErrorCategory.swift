/// What sort of failure an error is, as any caller needs to know it: the server answers it with an HTTP status
/// and a code, a terminal could choose an exit status by it. Each error type states its own beside its
/// definition (``CategorizedError``), so a new error never waits for a mapping written somewhere else.
public struct ErrorCategory: Sendable, Hashable {
  /// The kinds a client tells apart.
  public enum Kind: Sendable, Hashable {
    /// The request is wrong: a value out of range, a missing field, a file that is not what it says (400).
    case invalid
    /// What the request names does not exist (404).
    case notFound
    /// The request cannot be done in the present state: a duplicate, a chat already answering (409).
    case conflict
    /// The request or its file is larger than allowed (413).
    case tooLarge
    /// Too many of the same request wait already (429).
    case tooMany
    /// A part Hearth needs is missing or busy on this machine: no model loaded, a tool not installed (503).
    case unavailable
    /// A server Hearth reached for the request failed: a remote model, a download, a tool server (502).
    case upstream
    /// Hearth itself failed (500).
    case internalFailure
  }

  public var kind: Kind
  /// A short machine-readable code (`session_busy`); `nil` for the kind's own.
  public var code: String?
  /// The request's field at fault, when one is.
  public var parameter: String?

  public init(_ kind: Kind, code: String? = nil, parameter: String? = nil) {
    (self.kind, self.code, self.parameter) = (kind, code, parameter)
  }
}

/// An error that says what sort of failure it is (``ErrorCategory``); its `description` is the readable text.
public protocol CategorizedError: Error, CustomStringConvertible {
  var category: ErrorCategory { get }
}

extension InvalidParameterError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.invalid) }
}

extension PersonalDataError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .invalid(let field, _): ErrorCategory(.invalid, parameter: field)
    case .notFound: ErrorCategory(.notFound)
    case .duplicate: ErrorCategory(.conflict, code: "duplicate_item")
    }
  }
}
