public import Foundation

/// JSON as Hearth's own interfaces write it (the web app's API, the CLI's `--json`): every key in snake_case.
/// The Swift names of typed values are converted; the keys inside a ``JSONValue`` (a payload, a tool's schema:
/// data somebody else wrote) are kept as they were written.
public enum SnakeCaseJSON {
  /// An encoder writing snake_case keys and dates as seconds since 1970.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.userInfo[verbatimKeysMarked] = true
    encoder.keyEncodingStrategy = .custom { path in
      let name = path.last?.stringValue ?? ""
      guard let mark = name.first, mark == verbatimMark else { return SnakeKey(snakeCase(name)) }
      return SnakeKey(String(name.dropFirst()))
    }
    return encoder
  }

  /// `name` in snake_case: a word begins at each capital after a small letter or a digit, and at the last
  /// capital of a run followed by a small letter (`messageID` → `message_id`, `baseURLText` → `base_url_text`).
  /// A name already in snake_case is returned as it is.
  public static func snakeCase(_ name: String) -> String {
    let characters = Array(name)
    var result = ""
    result.reserveCapacity(characters.count + 4)
    for (index, character) in characters.enumerated() {
      if character.isUppercase, index > 0 {
        let previous = characters[index - 1]
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        let startsWord =
          previous.isLowercase || previous.isNumber
          || (previous.isUppercase && next.map(\.isLowercase) == true)
        if startsWord { result.append("_") }
      }
      result.append(contentsOf: character.lowercased())
    }
    return result
  }

  /// Set in the encoder's `userInfo`: a ``JSONValue`` then marks its keys so the key strategy keeps them.
  static let verbatimKeysMarked = CodingUserInfoKey(rawValue: "hearth.snakeCaseJSON.verbatimKeys")!
  /// Begins a key that is to be written as it is, without the mark; a control character, so no typed name has it.
  static let verbatimMark: Character = "\u{1}"

  private struct SnakeKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
