public import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a WebDAV XML body, with its namespace resolved: what a multistatus answer is read from.
public struct DAVElement: Sendable, Hashable {
  /// The element's name: its namespace URI and local name (`DAV:` `href`).
  public var name: DAVName
  public var children: [DAVElement]
  /// The text directly inside the element, whitespace at both ends removed.
  public var text: String
  /// Attributes by their local name (`name` of a CalDAV `comp`).
  public var attributes: [String: String]

  public init(name: DAVName, children: [DAVElement] = [], text: String = "", attributes: [String: String] = [:]) {
    self.name = name
    self.children = children
    self.text = text
    self.attributes = attributes
  }

  /// The `name` attribute (`<C:comp name="VEVENT"/>`).
  public var attributeName: String? { attributes["name"] }

  /// The first child with this name.
  public func child(_ name: DAVName) -> DAVElement? { children.first { $0.name == name } }

  /// Every child with this name.
  public func all(_ name: DAVName) -> [DAVElement] { children.filter { $0.name == name } }

  /// Parses an XML document into its root element. A document type declaration is refused before parsing
  /// (WebDAV bodies have none; it is where external and exponentially expanding entities are declared), and so
  /// is nesting deeper than `maxDepth`.
  /// - Throws: `DAVError.malformedXML` with the parser's own reason, or naming what was refused.
  public static func parse(_ data: Data, maxDepth: Int = 64) throws(DAVError) -> DAVElement {
    // Only UTF-8 (or ASCII) is read, so the check below sees the document as the parser will: a body in UTF-16
    // or UTF-32 (a byte-order mark, or NUL bytes) could hide a declaration from it.
    if data.contains(0) || data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
      throw .malformedXML(reason: "only UTF-8 bodies are accepted")
    }
    if let head = String(data: data.prefix(200), encoding: .utf8)?.lowercased(),
      let declared = head.firstMatch(of: /encoding\s*=\s*["']([^"']+)["']/)?.1,
      !["utf-8", "utf8", "us-ascii", "ascii"].contains(String(declared))
    {
      throw .malformedXML(reason: "only UTF-8 bodies are accepted, not \(declared)")
    }
    // `<!` opens a comment, a CDATA section or a declaration; declarations (DOCTYPE, ENTITY, ELEMENT…) are
    // refused in any case of letters.
    var index = data.startIndex
    while let found = data[index...].firstRange(of: Data("<!".utf8)) {
      let rest = data[found.upperBound...]
      if !rest.starts(with: Data("--".utf8)) && !rest.starts(with: Data("[CDATA[".utf8)) {
        throw .malformedXML(reason: "a document type declaration is not accepted")
      }
      index = found.upperBound
    }
    let reader = TreeReader(maxDepth: maxDepth)
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    let parsed = parser.parse()
    if reader.tooDeep { throw .malformedXML(reason: "elements are nested deeper than \(maxDepth)") }
    if reader.declares { throw .malformedXML(reason: "a document type declaration is not accepted") }
    guard parsed, let root = reader.root else {
      let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
      throw .malformedXML(reason: reason)
    }
    return root
  }
}

/// A namespaced XML name.
public struct DAVName: Sendable, Hashable, CustomStringConvertible {
  public var namespace: String
  public var local: String

  public init(_ namespace: String, _ local: String) {
    self.namespace = namespace
    self.local = local
  }

  public static func dav(_ local: String) -> DAVName { DAVName("DAV:", local) }
  public static func caldav(_ local: String) -> DAVName { DAVName(DAVNamespace.caldav, local) }
  public static func carddav(_ local: String) -> DAVName { DAVName(DAVNamespace.carddav, local) }
  public static func calendarServer(_ local: String) -> DAVName { DAVName(DAVNamespace.calendarServer, local) }
  public static func apple(_ local: String) -> DAVName { DAVName(DAVNamespace.apple, local) }

  public var description: String { "{\(namespace)}\(local)" }
}

/// The namespaces CalDAV and CardDAV servers speak.
public enum DAVNamespace {
  public static let dav = "DAV:"
  public static let caldav = "urn:ietf:params:xml:ns:caldav"
  public static let carddav = "urn:ietf:params:xml:ns:carddav"
  /// Apple's calendar server namespace, where `getctag` lives.
  public static let calendarServer = "http://calendarserver.org/ns/"
  /// Apple's iCal namespace, where `calendar-color` lives.
  public static let apple = "http://apple.com/ns/ical/"
}

/// Builds the element tree from the parser's events; the parser runs synchronously on the caller's thread.
private final class TreeReader: NSObject, XMLParserDelegate {
  let maxDepth: Int
  var root: DAVElement?
  /// Set when the document nests deeper than `maxDepth`; parsing stops there.
  var tooDeep = false
  /// Set when the parser meets a declaration the check before parsing missed; parsing stops there.
  var declares = false

  init(maxDepth: Int) { self.maxDepth = maxDepth }
  private var stack: [DAVElement] = []
  private var texts: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
    let named = attributes.map { (key, value) in (key.split(separator: ":").last.map(String.init) ?? key, value) }
    let attributes = Dictionary(named, uniquingKeysWith: { first, _ in first })
    guard stack.count < maxDepth else {
      tooDeep = true
      parser.abortParsing()
      return
    }
    stack.append(DAVElement(name: DAVName(namespaceURI ?? "", local), attributes: attributes))
    texts.append("")
  }

  // Declarations of entities and elements stop the parse, whatever let them through.
  func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
    refuse(parser)
  }

  func parser(
    _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
  ) {
    refuse(parser)
  }

  func parser(
    _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
    notationName: String?
  ) {
    refuse(parser)
  }

  func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
    refuse(parser)
  }

  private func refuse(_ parser: XMLParser) {
    declares = true
    parser.abortParsing()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !texts.isEmpty else { return }
    texts[texts.count - 1] += string
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    guard !texts.isEmpty else { return }
    texts[texts.count - 1] += String(decoding: block, as: UTF8.self)
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    guard var element = stack.popLast(), let text = texts.popLast() else { return }
    element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if stack.isEmpty {
      root = element
    } else {
      stack[stack.count - 1].children.append(element)
    }
  }
}
