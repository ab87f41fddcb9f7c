import Foundation

/// How one changed property is written back, line by line: the original's lines whose value Hearth still has
/// stay as written (a phone number's parameters, Apple's `item1.` groups), a value changed in place takes the
/// place and group of the one it replaces, and new values follow the last of them. `nil` when Hearth's reading
/// of the original does not line up with it one line for one (then every line of the property is replaced).
struct PropertyPlan {
  /// For each of the original's lines of the property, in order, what is written in its place.
  let lines: [[RawLine]]
  /// Values the original did not have, written after its last line of the property.
  let added: [RawLine]

  /// Per component, how many leading parts of a structured value Hearth models (`N`: family and given
  /// names; `ORG`: the organisation, not its units); the parts after them are the original's.
  static let modeledParts: [String: [String: Int]] = ["VCARD": ["N": 2, "ORG": 1]]

  init?(originals: [RawLine], old: [ContentLine], new: [ContentLine], component: String) {
    guard !originals.isEmpty, originals.count == old.count else { return nil }
    var unmatched = Array(new.indices)
    var lines: [[RawLine]?] = Array(repeating: nil, count: originals.count)
    for (index, before) in old.enumerated() {
      let text = SyncedBodies.written(before)
      if let position = unmatched.firstIndex(where: { SyncedBodies.written(new[$0]) == text }) {
        lines[index] = [originals[index]]
        unmatched.remove(at: position)
      }
    }
    var rest = unmatched[...]
    for index in originals.indices where lines[index] == nil {
      lines[index] = rest.popFirst().map { [Self.replacing(originals[index], with: new[$0], in: component)] } ?? []
    }
    self.lines = lines.map { $0 ?? [] }
    added = rest.map { RawLine(new[$0]) }
  }

  /// `line` in the place of `original`: the original's vCard group kept, and the parts of a structured value
  /// that Hearth does not model (a name's prefix and suffix, an organisation's units) taken from the original.
  static func replacing(_ original: RawLine, with line: ContentLine, in component: String) -> RawLine {
    var line = line
    let head = original.text.prefix { $0 != ":" && $0 != ";" }
    if let dot = head.lastIndex(of: ".") { line.name = head[..<dot] + "." + line.name }
    if let modeled = modeledParts[component]?[original.name] {
      let kept = rawParts(original.value)
      let written = rawParts(line.value)
      if kept.count > modeled {
        let parts = (0..<max(written.count, kept.count)).map { index in
          index < modeled || index >= kept.count ? (index < written.count ? written[index] : "") : kept[index]
        }
        line.value = parts.joined(separator: ";")
      }
    }
    return RawLine(line)
  }

  /// A value split at its unescaped semicolons, each part still escaped as written.
  static func rawParts(_ value: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaped = false
    for character in value {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ";" {
        parts.append(current)
        current = ""
        continue
      }
      current.append(character)
    }
    parts.append(current)
    return parts
  }
}
