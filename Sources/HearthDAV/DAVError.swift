/// What went wrong talking to a CalDAV or CardDAV server, in words the user can act on.
public enum DAVError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the user name or password (401) or the account may not see the resource (403).
  case notAuthorized(url: String, status: Int)
  /// The server answered with a status this step cannot go on from.
  case unexpectedStatus(method: String, url: String, status: Int)
  /// The answer was not XML.
  case malformedXML(reason: String)
  /// The answer was XML of another shape than the protocol gives.
  case unexpectedAnswer(String)
  /// A proxy or load balancer answered for a server that is away (502, 503, 504).
  case notAnswering(url: String, status: Int)
  /// The server could not be reached (refused, timed out, TLS failed).
  case unreachable(url: String, reason: String)
  /// The server would not take this one write (a read-only calendar's 403, a body it rejects): the item
  /// stays here, and the other items go on.
  case writeRefused(href: String, status: Int)
  /// Someone else changed or removed the resource since it was read (412 on `If-Match`).
  case changedOnServer(href: String)
  /// A URL that cannot be used.
  case badURL(String)
  /// The server offers no calendars and no address books for this account.
  case nothingFound(url: String)
  /// The server would not answer a `sync-collection` report from this token (expired, or not kept well):
  /// the caller lists the collection's entity tags instead.
  case syncTokenRefused(href: String, status: Int)

  public var description: String {
    switch self {
    case .notAuthorized(let url, 401):
      "the server at \(url) refused the user name or password (401): check them, or make an app password"
    case .notAuthorized(let url, let status): "the server at \(url) does not let this account in (\(status))"
    case .unexpectedStatus(let method, let url, let status): "\(method) \(url) answered \(status)"
    case .malformedXML(let reason): "the server's answer is not well-formed XML: \(reason)"
    case .unexpectedAnswer(let what): "the server's answer is not what CalDAV/CardDAV gives: \(what)"
    case .notAnswering(let url, let status): "the server at \(url) is not answering now (\(status)); try again later"
    case .unreachable(let url, let reason): "could not reach \(url): \(reason)"
    case .writeRefused(let href, let status):
      "the server would not take \(href) (\(status)): the calendar or address book may be read-only"
    case .changedOnServer(let href): "\(href) was changed on the server since it was read"
    case .badURL(let text): "\(text) is not an http or https URL"
    case .nothingFound(let url): "the server at \(url) offers no calendars, task lists or address books"
    case .syncTokenRefused(let href, let status): "the server refused the sync token of \(href) (\(status))"
    }
  }
}
