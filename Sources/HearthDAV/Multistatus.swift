public import Foundation

/// A `207 Multi-Status` answer (RFC 4918 §13): one response per resource, each with the properties that were
/// found, and, for a `sync-collection` report, the collection's new sync token.
public struct Multistatus: Sendable, Hashable {
  public var responses: [Response]
  /// The token to send next time (`sync-collection`, RFC 6578 §6.4).
  public var syncToken: String?

  /// What the server says of one resource.
  public struct Response: Sendable, Hashable {
    /// The resource's path as the server wrote it, percent-encoding kept.
    public var href: String
    /// The resource's own status (`404` for a member removed since the sync token), `nil` when it has
    /// properties instead.
    public var status: Int?
    /// The properties answered with 200, by name.
    public var properties: [DAVName: DAVElement]

    public init(href: String, status: Int? = nil, properties: [DAVName: DAVElement] = [:]) {
      self.href = href
      self.status = status
      self.properties = properties
    }

    /// A property's text (`getetag`, `displayname`, `getctag`).
    public func text(_ name: DAVName) -> String? {
      guard let value = properties[name]?.text, !value.isEmpty else { return nil }
      return value
    }

    /// The `href`s inside a property (`current-user-principal`, `calendar-home-set`).
    public func hrefs(_ name: DAVName) -> [String] {
      properties[name]?.all(.dav("href")).map(\.text).filter { !$0.isEmpty } ?? []
    }

    /// Whether the resource is gone: a 404 status, as a sync report names a removed member.
    public var isGone: Bool { status == 404 }
  }

  public init(responses: [Response], syncToken: String? = nil) {
    self.responses = responses
    self.syncToken = syncToken
  }

  /// Reads a multistatus body.
  /// - Throws: `DAVError.malformedXML` for a body that is not XML, `.unexpectedAnswer` for XML that is not
  ///   a multistatus.
  public static func parse(_ data: Data) throws(DAVError) -> Multistatus {
    let root = try DAVElement.parse(data)
    guard root.name == .dav("multistatus") else {
      throw .unexpectedAnswer("a multistatus body was expected, the server sent <\(root.name.local)>")
    }
    var responses: [Response] = []
    for element in root.all(.dav("response")) {
      guard let href = element.child(.dav("href"))?.text, !href.isEmpty else { continue }
      var response = Response(href: href, status: element.child(.dav("status")).flatMap { code(of: $0.text) })
      for propstat in element.all(.dav("propstat")) {
        let status = propstat.child(.dav("status")).flatMap { code(of: $0.text) } ?? 200
        guard (200..<300).contains(status), let prop = propstat.child(.dav("prop")) else { continue }
        for property in prop.children { response.properties[property.name] = property }
      }
      responses.append(response)
    }
    let token = root.child(.dav("sync-token"))?.text
    return Multistatus(responses: responses, syncToken: token?.isEmpty == false ? token : nil)
  }

  /// The code in a status line: `HTTP/1.1 404 Not Found` → 404.
  static func code(of statusLine: String) -> Int? {
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    return Int(parts[1])
  }
}
