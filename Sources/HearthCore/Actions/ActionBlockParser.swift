import Foundation

/// The kinds of action block an answer may hold.
public enum ActionKind: String, CaseIterable, Sendable, Hashable, Codable {
  case calendar = "CALENDAR_ACTION"
  case reminder = "REMINDER_ACTION"
  case note = "NOTE_ACTION"
  case habit = "HABIT_ACTION"
  case contactsSearch = "CONTACTS_SEARCH"
  case webSearch = "WEB_SEARCH"
  /// What Hearth keeps about the user: remember, change or forget a fact (``Fact``).
  case memory = "MEMORY_ACTION"
  /// A call of a tool from an MCP server the user added: `{"server": …, "tool": …, "arguments": {…}}`.
  case toolCall = "TOOL_CALL"

  /// The kinds Hearth itself carries out; a tool call goes to the server the user added.
  public static let builtIn: [ActionKind] = allCases.filter { $0 != .toolCall }
}

/// A well-formed `[KIND:{json}]` block found in an answer.
public struct ActionBlock: Sendable, Hashable {
  public var kind: ActionKind
  /// The JSON object between the colon and the closing bracket.
  public var payload: JSONValue
  /// The block as written.
  public var raw: String
  /// Where it starts, in characters from the start of the answer.
  public var offset: Int

  init(kind: ActionKind, payload: JSONValue, raw: String, offset: Int) {
    (self.kind, self.payload, self.raw, self.offset) = (kind, payload, raw, offset)
  }

  /// A block made from its parts rather than read from text (an action another program asks for over MCP):
  /// written out as the model would write it, so the audit log and a later confirmation read it the same way.
  public init(kind: ActionKind, payload: JSONValue) {
    self.init(kind: kind, payload: payload, raw: "[\(kind.rawValue):\(payload.jsonText)]", offset: 0)
  }
}

/// Something that looks like a block but cannot be one; it stays visible and never runs.
public struct MalformedBlock: Sendable, Hashable {
  public var raw: String
  public var offset: Int
  public var reason: String
}

/// Finds action blocks anywhere in an answer: strict about the block's structure (a known kind, a colon, one
/// balanced JSON object with strings and escapes honoured, a closing bracket), forgiving about what is
/// around it (prose, code fences, whitespace inside the block).
public enum ActionBlockParser {
  /// The longest payload read; a longer one is malformed.
  public static let maximumPayloadCharacters = 16_384

  public static func parse(_ text: String) -> (blocks: [ActionBlock], malformed: [MalformedBlock]) {
    let characters = Array(text)
    var blocks: [ActionBlock] = []
    var malformed: [MalformedBlock] = []
    var index = 0
    while index < characters.count {
      guard characters[index] == "[", let (name, afterName) = kindName(characters, from: index + 1) else {
        index += 1
        continue
      }
      let start = index
      guard let kind = ActionKind(rawValue: name) else {
        if name.hasSuffix("_ACTION") || name.hasSuffix("_SEARCH") {
          malformed.append(
            MalformedBlock(raw: String(characters[start..<afterName]), offset: start, reason: "unknown kind \(name)"))
        }
        index = afterName
        continue
      }
      var cursor = skipSpace(characters, from: afterName)
      guard cursor < characters.count, characters[cursor] == "{" else {
        malformed.append(
          MalformedBlock(
            raw: String(characters[start..<min(cursor + 1, characters.count)]), offset: start,
            reason: "\(name): no JSON object after the colon"))
        index = afterName
        continue
      }
      guard let objectEnd = balancedObjectEnd(characters, from: cursor) else {
        malformed.append(
          MalformedBlock(
            raw: String(characters[start..<min(characters.count, start + 200)]), offset: start,
            reason: "\(name): the JSON object is not closed"))
        index = afterName
        continue
      }
      let json = String(characters[cursor...objectEnd])
      cursor = skipSpace(characters, from: objectEnd + 1)
      let closed = cursor < characters.count && characters[cursor] == "]"
      // Tolerated: a missing bracket at the very end of the answer (or before a closing code fence).
      let endsAnswer = String(characters[min(cursor, characters.count)...]).trimmingFence().isEmpty
      guard closed || endsAnswer else {
        malformed.append(
          MalformedBlock(
            raw: String(characters[start...objectEnd]), offset: start, reason: "\(name): the block is not closed with ]"
          ))
        index = objectEnd + 1
        continue
      }
      let end = closed ? cursor + 1 : objectEnd + 1
      let raw = String(characters[start..<end])
      if json.count > maximumPayloadCharacters {
        malformed.append(
          MalformedBlock(raw: String(raw.prefix(200)), offset: start, reason: "\(name): the payload is too long"))
      } else if let payload = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)),
        payload.objectMembers != nil
      {
        blocks.append(ActionBlock(kind: kind, payload: payload, raw: raw, offset: start))
      } else {
        malformed.append(MalformedBlock(raw: raw, offset: start, reason: "\(name): the payload is not valid JSON"))
      }
      index = end
    }
    return (blocks, malformed)
  }

  /// `NAME:` after an opening bracket: upper-case letters and underscores, then a colon.
  /// `text` with every place that could open a block (`[` before a kind's name and a colon, known kind or
  /// not) turned into a parenthesis: text Hearth did not generate (retrieved, looked up, imported, found on
  /// the web) is shown and read as data, and a model that repeats it word for word writes no block.
  public static func defused(_ text: String) -> String {
    guard text.contains("[") else { return text }
    let characters = Array(text)
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for (index, character) in characters.enumerated() {
      if character == "[", kindName(characters, from: index + 1) != nil {
        result.append("(")
      } else {
        result.append(character)
      }
    }
    return result
  }

  private static func kindName(_ characters: [Character], from start: Int) -> (String, Int)? {
    var index = start
    while index < characters.count, index - start <= 32, characters[index].isASCII,
      characters[index].isUppercase || characters[index] == "_"
    {
      index += 1
    }
    guard index > start, index < characters.count, characters[index] == ":" else { return nil }
    return (String(characters[start..<index]), index + 1)
  }

  private static func skipSpace(_ characters: [Character], from start: Int) -> Int {
    var index = start
    while index < characters.count, characters[index].isWhitespace { index += 1 }
    return index
  }

  /// The index of the `}` that closes the object opening at `start`, honouring strings and escapes.
  private static func balancedObjectEnd(_ characters: [Character], from start: Int) -> Int? {
    var depth = 0
    var strings = JSONStringTracker()
    var index = start
    while index < characters.count, index - start <= maximumPayloadCharacters * 2 {
      let character = characters[index]
      if !strings.isInString(character) {
        switch character {
        case "{", "[": depth += 1
        case "}", "]":
          depth -= 1
          if depth == 0 { return character == "}" ? index : nil }
          if depth < 0 { return nil }
        default: break
        }
      }
      index += 1
    }
    return nil
  }
}

extension String {
  /// Without surrounding whitespace and a closing code fence.
  fileprivate func trimmingFence() -> String {
    var text = trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasPrefix("```") { text = String(text.dropFirst(3)) }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension ActionBlockParser {
  /// Where the well-formed blocks of `text` are, as UTF-16 offsets (what JavaScript strings index by): the
  /// spans a surface cuts out to show the answer with cards in their place.
  public static func blockSpans(in text: String) -> [Range<Int>] {
    let (blocks, _) = parse(text)
    var spans: [Range<Int>] = []
    var index = text.startIndex
    var offset = 0
    for block in blocks.sorted(by: { $0.offset < $1.offset }) {
      index = text.index(index, offsetBy: block.offset - offset)
      offset = block.offset
      let end = text.index(index, offsetBy: block.raw.count)
      let start16 = text.utf16.distance(from: text.startIndex, to: index)
      spans.append(start16..<(start16 + text.utf16.distance(from: index, to: end)))
    }
    return spans
  }
}
