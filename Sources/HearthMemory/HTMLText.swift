import Foundation

/// Readable text from an HTML page, keeping the structure the chunker follows: headings become Markdown
/// headings, blocks become paragraphs, list items become lines; scripts, styles and comments go.
enum HTMLText {
  private static let blockTags: Set<String> = [
    "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "table", "tr", "ul", "ol",
    "blockquote", "pre", "figure", "dl", "dt", "dd", "hr", "form", "fieldset",
  ]
  private static let skippedTags: Set<String> = ["script", "style", "noscript", "template", "svg", "head"]

  static func plain(_ html: String) -> String {
    var output = ""
    var text = ""
    var index = html.startIndex
    func flushText() {
      let words = text.split(whereSeparator: \.isWhitespace)
      if !words.isEmpty {
        if let last = output.last, !last.isWhitespace { output += " " }
        output += decodeEntities(words.joined(separator: " "))
      }
      text = ""
    }
    func breakLine(_ separator: String) {
      flushText()
      while output.last == " " { output.removeLast() }
      if !output.isEmpty, !output.hasSuffix(separator) { output += separator }
    }
    while index < html.endIndex {
      let character = html[index]
      guard character == "<" else {
        text.append(character)
        index = html.index(after: index)
        continue
      }
      if html[index...].hasPrefix("<!--") {
        index = html[index...].range(of: "-->")?.upperBound ?? html.endIndex
        continue
      }
      guard let close = html[index...].firstIndex(of: ">") else {
        text.append(contentsOf: html[index...])
        break
      }
      let inside = html[html.index(after: index)..<close]
      index = html.index(after: close)
      let isEnd = inside.hasPrefix("/")
      let name = inside.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber }).lowercased()
      if !isEnd, skippedTags.contains(name) {
        index =
          html[index...].range(of: "</\(name)", options: .caseInsensitive).map {
            html[$0.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
          } ?? html.endIndex
        continue
      }
      if name.count == 2, name.first == "h", let level = Int(name.dropFirst()), (1...6).contains(level) {
        breakLine("\n\n")
        if !isEnd { output += String(repeating: "#", count: level) + " " }
      } else if name == "br" {
        breakLine("\n")
      } else if name == "li" {
        breakLine("\n")
        if !isEnd { output += "- " }
      } else if name == "td" || name == "th" {
        flushText()
        if !isEnd, !output.isEmpty, !output.hasSuffix("\n") { output += " | " }
      } else if blockTags.contains(name) {
        breakLine("\n\n")
      }
    }
    flushText()
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—", "ndash": "–",
    "hellip": "…", "copy": "©", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "euro": "€",
  ]

  static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      let after = rest[rest.index(after: amp)...]
      if let semicolon = after.prefix(10).firstIndex(of: ";") {
        let entity = after[..<semicolon]
        if let value = decode(entity) {
          result += value
          rest = after[after.index(after: semicolon)...]
          continue
        }
      }
      result += "&"
      rest = after
    }
    return result + rest
  }

  private static func decode(_ entity: Substring) -> String? {
    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
      return UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
    if entity.hasPrefix("#") {
      return UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
    return named[String(entity)]
  }
}
