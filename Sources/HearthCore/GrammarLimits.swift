/// What a GBNF grammar may cost before llama.cpp reads it. llama.cpp parses a grammar by recursive descent,
/// one stack frame per nested group, and builds its tables in memory, so a grammar from a request is
/// measured first: a deep one would overflow the stack, a huge one would take the process's memory.
public enum GrammarLimits {
  /// Longest grammar, in UTF-8 bytes.
  public static let maxBytes = 256 * 1024
  /// Deepest nesting of parenthesised groups.
  public static let maxNesting = 64

  /// Why a grammar was refused.
  public struct Exceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit that was passed, in words.
    public var limit: String
    public var description: String { "the grammar is too large: \(limit)" }
  }

  /// Checks `grammar`'s size and its groups' nesting, in one pass over its bytes; text inside string
  /// literals, character classes and comments is not counted as nesting.
  public static func check(_ grammar: String) throws(Exceeded) {
    let bytes = grammar.utf8
    guard bytes.count <= maxBytes else {
      throw Exceeded(limit: "\(bytes.count) bytes, more than the \(maxBytes) allowed")
    }
    var depth = 0
    var deepest = 0
    var inside: UInt8? = nil  // the byte that ends the literal or class being read
    var escaped = false
    var comment = false
    var repetitions: [Int] = []  // where each `{` outside literals, classes and comments is
    for (offset, byte) in bytes.enumerated() {
      if comment {
        if byte == UInt8(ascii: "\n") { comment = false }
        continue
      }
      if let closing = inside {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == closing {
          inside = nil
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inside = UInt8(ascii: "\"")
      case UInt8(ascii: "["): inside = UInt8(ascii: "]")
      case UInt8(ascii: "#"): comment = true
      case UInt8(ascii: "("):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: ")"): depth = max(0, depth - 1)
      case UInt8(ascii: "{"): repetitions.append(offset)
      default: break
      }
    }
    guard deepest <= maxNesting else {
      throw Exceeded(limit: "groups nested \(deepest) deep, more than the \(maxNesting) allowed")
    }
    // llama.cpp subtracts a repetition's counts unsigned: {3,1} would make it write rules until memory runs out.
    let text = Array(bytes)
    for start in repetitions {
      var index = start + 1
      func count() -> Int? {
        var value: Int?
        while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
          value = min((value ?? 0) * 10 + Int(text[index] - UInt8(ascii: "0")), 1_000_000_000)
          index += 1
        }
        return value
      }
      func spaces() { while index < text.count, text[index] == 0x20 || text[index] == 0x09 { index += 1 } }
      spaces()
      guard let least = count() else { continue }
      spaces()
      guard index < text.count, text[index] == UInt8(ascii: ",") else { continue }
      index += 1
      spaces()
      if let most = count(), most < least {
        throw Exceeded(limit: "the repetition {\(least),\(most)} counts down")
      }
    }
  }
}
