public import HearthCore

/// One logical line of an iCalendar (RFC 5545 §3.1) or vCard (RFC 6350 §3.3) file: `NAME;PARAM=a,b:value`,
/// after unfolding, with the number of the physical line it started on.
struct ContentLine: Sendable, Hashable {
  var name: String
  /// Parameter names upper-cased; values with quotes removed, in file order.
  var parameters: [(name: String, values: [String])]
  var value: String
  var line: Int

  static func == (lhs: ContentLine, rhs: ContentLine) -> Bool {
    lhs.name == rhs.name && lhs.value == rhs.value && lhs.line == rhs.line
      && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
      && lhs.parameters.map(\.values) == rhs.parameters.map(\.values)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(value)
    hasher.combine(line)
  }

  init(name: String, parameters: [(name: String, values: [String])] = [], value: String, line: Int = 0) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.line = line
  }

  /// The values of a parameter (empty when absent).
  func parameter(_ name: String) -> [String] {
    parameters.filter { $0.name == name }.flatMap(\.values)
  }

  /// The value as text, with `\n`, `\,`, `\;` and `\\` unescaped.
  var text: String { Self.unescape(value) }

  /// The value split at unescaped `separator`s, each part unescaped (`N`, `ORG`, `CATEGORIES`).
  func components(separatedBy separator: Character) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaped = false
    for character in value {
      if escaped {
        current.append("\\")
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == separator {
        parts.append(Self.unescape(current))
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaped { current.append("\\") }
    parts.append(Self.unescape(current))
    return parts
  }

  static func unescape(_ value: String) -> String {
    guard value.contains("\\") else { return value }
    var result = ""
    var escaped = false
    for character in value {
      if escaped {
        switch character {
        case "n", "N": result.append("\n")
        default: result.append(character)
        }
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    if escaped { result.append("\\") }
    return result
  }

  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\r\n", "\n", "\r": result += "\\n"
      default: result.append(character)
      }
    }
    return result
  }

  /// The line as written, without folding: `NAME;PARAM=value:value`.
  var unfolded: String {
    var result = name
    for (name, values) in parameters {
      let written = values.map { value in
        value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value)\"" : value
      }
      result += ";\(name)=\(written.joined(separator: ","))"
    }
    return result + ":" + value
  }
}

/// Why a file could not be read at all (as opposed to one item in it).
public enum InterchangeError: Error, Sendable, Hashable, CustomStringConvertible {
  case notUTF8(format: String)
  case wrongFormat(expected: String, found: String)
  case tooLarge(bytes: Int, limit: Int)

  public var description: String {
    switch self {
    case .notUTF8(let format): "the \(format) file is not UTF-8 text"
    case .wrongFormat(let expected, let found): "not \(expected) (it starts with \"\(found)\")"
    case .tooLarge(let bytes, let limit): "the file has \(bytes) bytes; the limit is \(limit)"
    }
  }
}

enum ContentLines {
  /// Splits a file into content lines: CRLF, LF or CR line ends; a line starting with a space or a tab
  /// continues the previous one (the first character is dropped). Blank lines are skipped; a line without a
  /// colon becomes a line with an empty name so the reader reports it where it is.
  static func parse(_ text: String) -> [ContentLine] {
    var logical: [(text: String, line: Int)] = []
    var number = 0
    for physical in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      number += 1
      if let first = physical.first, first == " " || first == "\t", !logical.isEmpty {
        logical[logical.count - 1].text += physical.dropFirst()
      } else if !physical.isEmpty {
        logical.append((String(physical), number))
      }
    }
    return logical.map { split($0.text, line: $0.line) }
  }

  private static func split(_ text: String, line: Int) -> ContentLine {
    var name = ""
    var parameters: [(name: String, values: [String])] = []
    var index = text.startIndex
    while index < text.endIndex, text[index] != ";", text[index] != ":" {
      name.append(text[index])
      index = text.index(after: index)
    }
    while index < text.endIndex, text[index] == ";" {
      index = text.index(after: index)
      var parameterName = ""
      while index < text.endIndex, text[index] != "=", text[index] != ":", text[index] != ";" {
        parameterName.append(text[index])
        index = text.index(after: index)
      }
      var values: [String] = []
      if index < text.endIndex, text[index] == "=" {
        repeat {
          index = text.index(after: index)
          var value = ""
          if index < text.endIndex, text[index] == "\"" {
            index = text.index(after: index)
            while index < text.endIndex, text[index] != "\"" {
              value.append(text[index])
              index = text.index(after: index)
            }
            if index < text.endIndex { index = text.index(after: index) }
          } else {
            while index < text.endIndex, !",;:".contains(text[index]) {
              value.append(text[index])
              index = text.index(after: index)
            }
          }
          values.append(value)
        } while index < text.endIndex && text[index] == ","
      }
      parameters.append((parameterName.uppercased(), values))
    }
    guard index < text.endIndex, text[index] == ":" else {
      return ContentLine(name: "", value: text, line: line)
    }
    return ContentLine(
      name: name.uppercased(), parameters: parameters, value: String(text[text.index(after: index)...]), line: line)
  }

  /// Writes lines with CRLF ends, folded so no line exceeds 75 octets (never inside a UTF-8 character).
  static func write(_ lines: [ContentLine]) -> String {
    var output = ""
    for line in lines {
      var octets = 0
      var limit = 75
      for character in line.unfolded {
        let size = String(character).utf8.count
        if octets + size > limit {
          output += "\r\n "
          octets = 1
          limit = 75
        }
        output.append(character)
        octets += size
      }
      output += "\r\n"
    }
    return output
  }
}

extension InterchangeError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .tooLarge: ErrorCategory(.tooLarge, code: "body_too_large")
    case .notUTF8, .wrongFormat: ErrorCategory(.invalid, code: "invalid_file")
    }
  }
}
