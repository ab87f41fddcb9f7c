import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1

/// One result of a web search: data for the answer, never a source of actions.
public struct WebResult: Sendable, Hashable, Codable {
  public var title: String
  public var url: String
  public var snippet: String

  public init(title: String, url: String, snippet: String) {
    self.title = title
    self.url = url
    self.snippet = snippet
  }
}

/// Where web searches go. Off unless configured: nothing leaves the machine by default.
public protocol WebSearchProvider: Sendable {
  func search(_ query: String, limit: Int) async throws -> [WebResult]
}

/// Why a search failed.
public enum WebSearchError: Error, Sendable, Hashable, CustomStringConvertible {
  case unreachable(String)
  case status(Int)
  case unreadable(String)

  public var description: String {
    switch self {
    case .unreachable(let detail): "the search server cannot be reached: \(detail)"
    case .status(let code): "the search server answered \(code)"
    case .unreadable(let detail): "the search server's answer is not SearXNG JSON: \(detail)"
    }
  }
}

/// A SearXNG instance (or anything that answers `GET /search?q=…&format=json` the same way).
public struct SearXNGClient: WebSearchProvider {
  public let base: URL
  public let timeout: Duration

  public init(base: URL, timeout: Duration = .seconds(10)) {
    self.base = base
    self.timeout = timeout
  }

  private struct Answer: Decodable {
    struct Result: Decodable {
      var title: String?
      var url: String?
      var content: String?
    }
    var results: [Result]
  }

  public func search(_ query: String, limit: Int = 5) async throws -> [WebResult] {
    var components = URLComponents(url: base.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
    components?.queryItems = [URLQueryItem(name: "q", value: query), URLQueryItem(name: "format", value: "json")]
    guard let url = components?.url else { throw WebSearchError.unreachable("bad address \(base)") }
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "Accept", value: "application/json")
    let response: HTTPClientResponse
    do {
      let (seconds, attoseconds) = timeout.components
      let limit = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
      response = try await HTTPClient.shared.execute(request, timeout: limit)
    } catch {
      throw WebSearchError.unreachable("\(error)")
    }
    guard response.status == .ok else { throw WebSearchError.status(Int(response.status.code)) }
    let body = try await response.body.collect(upTo: 4 << 20)
    do {
      let answer = try JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
      return answer.results.prefix(limit).compactMap { result in
        guard let title = result.title, let link = result.url else { return nil }
        return WebResult(title: title, url: link, snippet: String((result.content ?? "").prefix(400)))
      }
    } catch {
      throw WebSearchError.unreadable("\(error)")
    }
  }
}
