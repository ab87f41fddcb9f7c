import Foundation

/// Rewrites of GBNF grammars, so that grammars built apart can be joined into one.
public enum GrammarRules {
  /// `grammar` with every rule it defines renamed `prefix` + name, in definitions and references alike;
  /// literals (`"…"`) and character classes (`[…]`) are left as written.
  public static func prefixed(_ grammar: String, with prefix: String) -> String {
    let defined = Set(
      grammar.split(separator: "\n").compactMap { line -> String? in
        guard let arrow = line.range(of: "::=") else { return nil }
        let name = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
      })
    var output = ""
    var name = ""
    var closing: Character?
    var escaped = false
    func flush() {
      guard !name.isEmpty else { return }
      output += defined.contains(name) ? prefix + name : name
      name = ""
    }
    for character in grammar {
      if let end = closing {
        output.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == end {
          closing = nil
        }
        continue
      }
      if character.isLetter || character.isNumber || character == "-" || character == "_" {
        name.append(character)
        continue
      }
      flush()
      output.append(character)
      if character == "\"" { closing = "\"" }
      if character == "[" { closing = "]" }
    }
    flush()
    return output
  }
}
