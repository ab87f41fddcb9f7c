import Foundation
public import HearthCore

/// A GBNF grammar whose sentences are exactly the valid action blocks (compact JSON, fields in the specs'
/// order, dates as ISO 8601 strings), and the pattern that switches it on: generation runs free until the
/// model writes `[KIND:`, and from there every token must continue a valid block.
public enum ActionGrammar {
  /// The grammar over `kinds` (all by default).
  public static func grammar(kinds: [ActionKind] = ActionKind.builtIn) -> String {
    var rules: [String] = []
    let kindRules = kinds.map { "kind-\(name($0))" }
    rules.append("root ::= \"[\" ( \(kindRules.joined(separator: " | ")) ) \"]\"")
    for kind in kinds {
      let specs = ActionSpec.specs(of: kind)
      let variants = specs.map { "\(name(kind))-\($0.action ?? "query")" }
      rules.append("kind-\(name(kind)) ::= \"\(kind.rawValue):{\" ( \(variants.joined(separator: " | ")) ) \"}\"")
      for (spec, variant) in zip(specs, variants) { rules.append("\(variant) ::= \(body(spec))") }
    }
    rules += primitives
    return rules.joined(separator: "\n")
  }

  /// The grammar over `kinds` and, when `tools` are given, calls of those tools: `[TOOL_CALL:{"server": …,
  /// "tool": …, "arguments": …}]` with the arguments held to each tool's own schema (any object for a schema
  /// no grammar can express).
  public static func grammar(kinds: [ActionKind] = ActionKind.builtIn, tools: [CallableTool]) -> String {
    var rules = grammar(kinds: kinds).components(separatedBy: "\n")
    guard !tools.isEmpty, let root = rules.firstIndex(where: { $0.hasPrefix("root ::= ") }) else {
      return rules.joined(separator: "\n")
    }
    rules[root] = rules[root].replacingOccurrences(of: "( kind-", with: "( kind-tool-call | kind-")
    let variants = tools.indices.map { "tool-\($0)" }
    rules.append(#"kind-tool-call ::= "TOOL_CALL:{" ( "# + variants.joined(separator: " | ") + #" ) "}""#)
    for (index, tool) in tools.enumerated() {
      let arguments =
        (try? JSONSchemaGrammar.grammar(for: tool.schema, layout: .compact))
        ?? JSONSchemaGrammar.anyObject(layout: .compact)
      rules.append(
        "tool-\(index) ::= "
          + quoted(#""server":\#(tool.serverJSON),"tool":\#(tool.toolJSON),"arguments":"#) + " t\(index)-root")
      rules.append(GrammarRules.prefixed(arguments, with: "t\(index)-"))
    }
    return rules.joined(separator: "\n")
  }

  /// The grammar of one tool's call with some arguments pinned (read from the request), so a model writes
  /// only the rest.
  public static func grammar(for tool: CallableTool, pinned: [String: JSONValue]) -> String {
    let arguments =
      (try? JSONSchemaGrammar.grammar(for: tool.schema(pinning: pinned), layout: .compact))
      ?? JSONSchemaGrammar.anyObject(layout: .compact)
    return "root ::= "
      + quoted(#"[TOOL_CALL:{"server":\#(tool.serverJSON),"tool":\#(tool.toolJSON),"arguments":"#)
      + #" args-root "}]""# + "\n" + GrammarRules.prefixed(arguments, with: "args-")
  }

  /// The grammar of one action's blocks, with some fields pinned to given JSON values (dates read from the
  /// request) and some left out, so a model only writes what it must: the free text.
  /// `choices` limits a field to a few JSON values (the titles of the items that exist); a field named in
  /// `phrased` may only be a phrase of up to eight of `words` (the request's own words), so the model names
  /// things as the user did instead of inventing.
  public static func grammar(
    for spec: ActionSpec, fixed: [String: String], omit: Set<String>, choices: [String: [String]] = [:],
    phrased: Set<String> = [], words: [String] = []
  ) -> String {
    let header = #""[\#(spec.kind.rawValue):{""#
    var phrases: [String: [String]] = [:]
    if !words.isEmpty {
      for field in phrased { phrases[field] = ["phrase"] }
    }
    let body = body(spec, fixed: fixed, omit: omit, choices: choices.merging(phrases) { old, _ in old })
    var rules = ["root ::= \(header) \(body) \"}]\""]
    if !words.isEmpty {
      rules.append(#"phrase ::= "\"" word ( " " word ){0,7} "\"""#)
      rules.append("word ::= " + words.map { quoted($0) }.joined(separator: " | "))
    }
    return (rules + primitives).joined(separator: "\n")
  }

  /// The trigger: a full match of everything generated so far; the grammar gets the text from the group on.
  public static func triggerPattern(kinds: [ActionKind] = ActionKind.builtIn) -> String {
    #"[\s\S]*?(\[(?:"# + kinds.map(\.rawValue).joined(separator: "|") + #"):[\s\S]*)"#
  }

  private static func name(_ kind: ActionKind) -> String {
    kind.rawValue.lowercased().replacingOccurrences(of: "_", with: "-")
  }

  private static func body(
    _ spec: ActionSpec, fixed: [String: String] = [:], omit: Set<String> = [], choices: [String: [String]] = [:]
  ) -> String {
    func value(of field: ActionField) -> String {
      guard let options = choices[field.name], !options.isEmpty else { return Self.value(field.type) }
      if options == ["phrase"] { return "phrase" }
      return "( " + options.map(quoted).joined(separator: " | ") + " )"
    }
    var parts: [String] = []
    var first = true
    func key(_ field: String) -> String {
      defer { first = false }
      return first ? #""\"\#(field)\":""# : #"",\"\#(field)\":""#
    }
    if let action = spec.action {
      parts.append(#""\"action\":\"\#(action)\"""#)
      first = false
    }
    if spec.needsTarget {
      let targets = spec.fields.filter { spec.targetFields.contains($0.name) && !omit.contains($0.name) }
      let alternatives = targets.map { field in
        "\(key(field.name)) \(fixed[field.name].map(quoted) ?? value(of: field))"
      }
      first = false
      parts.append("( \(alternatives.joined(separator: " | ")) )")
    }
    for field in spec.fields where !(spec.needsTarget && spec.targetFields.contains(field.name)) {
      if omit.contains(field.name) { continue }
      if let literal = fixed[field.name] {
        parts.append("\(key(field.name)) \(quoted(literal))")
        continue
      }
      let piece = "\(key(field.name)) \(value(of: field))"
      parts.append(field.required ? piece : "( \(piece) )?")
    }
    return parts.joined(separator: " ")
  }

  /// A GBNF literal of a JSON value's text.
  private static func quoted(_ json: String) -> String {
    "\"" + json.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  private static func value(_ type: ActionField.FieldType) -> String {
    switch type {
    case .text(let limit): limit > 200 ? "long-text" : "text-\(limit)"
    case .dateTime: "date-time"
    case .date: "date"
    case .dateOrDateTime: "date-or-time"
    case .minutes: "minutes"
    case .choice(let options): "( " + options.map { #""\"\#($0)\"""# }.joined(separator: " | ") + " )"
    case .tags: "tags"
    }
  }

  private static let textLimits = Set(
    ActionSpec.all.flatMap(\.fields).compactMap { field -> Int? in
      if case .text(let limit) = field.type, limit <= 200 { return limit }
      return nil
    } + [30])

  private static var primitives: [String] {
    textLimits.sorted().map { "text-\($0) ::= \"\\\"\" char{1,\($0)} \"\\\"\"" } + [
      #"long-text ::= "\"" char+ "\"""#,
      #"char ::= [^"\\\x00-\x1F] | "\\" ["\\/nt]"#,
      #"date-time ::= "\"" day "T" clock "\"""#,
      #"date ::= "\"" day "\"""#,
      #"date-or-time ::= "\"" day ( "T" clock )? "\"""#,
      #"day ::= "20" [0-9] [0-9] "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [12] [0-9] | "3" [01] )"#,
      #"clock ::= ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9]"#,
      #"minutes ::= [1-9] [0-9]{0,3}"#,
      #"tags ::= "[" ( text-30 ( "," text-30 ){0,9} )? "]""#,
    ]
  }
}
