import Foundation
import HearthActions
import HearthCore

/// Writes the call of an MCP tool for a request that asks for what a tool does, so that even a tiny model
/// calls tools reliably: the tool is chosen by the request's words against the tools' names and descriptions,
/// time zones and clock times are read from the words by code, and the model writes only the arguments left,
/// under the grammar of the tool's schema.
struct ToolDrafter {
  let tools: [CallableTool]
  let model: any ChatModel
  /// The user's own zone, for an argument the tool says defaults to the local zone.
  let localZone: String

  /// The call block for `request`, or `nil` when no tool fits it.
  func draft(_ request: String) async throws -> String? {
    let words = Self.words(request)
    // A tool is a candidate when the request says a word of its name; the one whose description the request
    // fits best, and that takes the most from its words (places, clock times), is called.
    let ranked = tools.compactMap { tool -> (CallableTool, Arguments, Int)? in
      let named = words.intersection(Self.words(tool.tool + " " + tool.server))
      guard !named.isEmpty, let arguments = arguments(of: tool, for: request) else { return nil }
      let fit = named.count * 2 + words.intersection(Self.words(tool.description)).count
      return (tool, arguments, fit + 2 * arguments.read)
    }.sorted { $0.2 > $1.2 }
    for (tool, arguments, _) in ranked {
      let (pinned, open) = (arguments.pinned, arguments.open)
      if open.isEmpty { return tool.block(arguments: .object(pinned)) }
      let grammar = ActionGrammar.grammar(
        for: tool, pinned: Dictionary(pinned, uniquingKeysWith: { first, _ in first }))
      let system =
        "Call the tool for the user's message with one block, using the user's own words.\n"
        + ActionInstructions.toolLines([tool])
      let options = GenerationOptions(maxNewTokens: 160, sampling: .greedy, grammar: grammar)
      let text = try await model.wholeAnswer(to: [.system(system), .user(request)], options: options)
      if let block = ActionBlockParser.parse(text).blocks.first { return block.raw }
    }
    return nil
  }

  /// A call's arguments as far as code can write them.
  struct Arguments {
    /// The values written, in the schema's order.
    var pinned: [(String, JSONValue)] = []
    /// The required arguments left for the model.
    var open: [String] = []
    /// How many values came from the request's own words (not a default).
    var read = 0
  }

  /// The arguments read from the request and the required ones left for the model; `nil` when a required one
  /// can be neither read nor written (a clock time the request does not say).
  func arguments(of tool: CallableTool, for request: String) -> Arguments? {
    let named = TimeZoneReader.zones(in: request)
    var zones = named
    let zoneParameters = tool.parameters.filter { Self.isZone($0.name, $0.schema) }
    // "3pm in London to Tokyo": the first place named is where from, the last where to; one place named fills
    // the target and leaves the source to the local zone.
    if zoneParameters.count >= 2, zones.count == 1 {
      zones = zoneParameters.map { Self.isTarget($0.name) ? zones[0] : localZone }
    }
    var result = Arguments()
    for (index, (name, schema, required)) in tool.parameters.enumerated() {
      if Self.isZone(name, schema) {
        let position = zoneParameters.firstIndex { $0.name == name } ?? index
        let zone: String?
        if position < zones.count {
          zone = zones[position]
        } else if zoneParameters.count == 1, let last = zones.last {
          zone = last
        } else if required {
          let mentionsLocal = (schema["description"]?.stringValue ?? "").lowercased().contains("local")
          guard mentionsLocal || zoneParameters.count == 1 else { return nil }
          zone = localZone
        } else {
          zone = nil
        }
        if let zone {
          result.pinned.append((name, .string(zone)))
          if named.contains(zone) { result.read += 1 }
        }
      } else if Self.isPath(name, schema) {
        if let path = Self.path(in: request) {
          result.pinned.append((name, .string(path)))
          result.read += 1
        } else if required {
          return nil
        }
      } else if Self.isClock(name, schema) {
        if let clock = Self.clockTime(in: request) {
          result.pinned.append((name, .string(clock)))
          result.read += 1
        } else if required {
          return nil
        }
      } else if let options = schema["enum"]?.arrayValue?.compactMap(\.stringValue),
        let said = options.first(where: { request.lowercased().contains($0.lowercased()) })
      {
        result.pinned.append((name, .string(said)))
        result.read += 1
      } else if required {
        result.open.append(name)
      }
    }
    return result
  }

  static func isZone(_ name: String, _ schema: JSONValue) -> Bool {
    let about = (name + " " + (schema["description"]?.stringValue ?? "")).lowercased()
    return schema["type"]?.stringValue == "string"
      && (about.contains("timezone") || about.contains("time zone") || about.contains("iana"))
  }

  static func isTarget(_ name: String) -> Bool {
    ["target", "to", "destination"].contains { name.lowercased().contains($0) }
  }

  static func isClock(_ name: String, _ schema: JSONValue) -> Bool {
    let description = (schema["description"]?.stringValue ?? "").lowercased()
    return schema["type"]?.stringValue == "string" && (name.lowercased() == "time" || description.contains("hh:mm"))
  }

  static func isPath(_ name: String, _ schema: JSONValue) -> Bool {
    schema["type"]?.stringValue == "string" && name.lowercased().contains("path")
  }

  /// The first file path the request names: `/srv/notes`, `~/code/app`, `./site`.
  static func path(in request: String) -> String? {
    for word in request.split(whereSeparator: \.isWhitespace) {
      var candidate = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'`“”‘’()"))
      while let last = candidate.last, ".,;:!?".contains(last) { candidate.removeLast() }
      if candidate.hasPrefix("/") || candidate.hasPrefix("~/") || candidate.hasPrefix("./")
        || candidate.hasPrefix("../")
      {
        return candidate.count > 1 ? candidate : nil
      }
    }
    return nil
  }

  /// "15:30", "3pm", "3:30 pm" → 24-hour `HH:MM`.
  static func clockTime(in request: String) -> String? {
    // Read as every request's times are: the day does not matter for a time of day.
    let spoken = SpokenTime(words: SpokenTime.words(of: request), today: LocalDate(Date(), in: .gmt))
    return spoken.clocks.first.map { String(format: "%02d:%02d", $0.hour, $0.minute) }
  }

  /// Content words, lower-cased, without a plural `s`.
  static func words(_ text: String) -> Set<String> {
    var words = Set<String>()
    var current = ""
    var previous: Character?
    func flush() {
      var word = current.lowercased()
      current = ""
      if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { word.removeLast() }
      if word.count > 1, !stopWords.contains(word) { words.insert(word) }
    }
    for character in text {
      if character.isLetter || character.isNumber {
        // camelCase names split where a capital follows a lower-case letter.
        if character.isUppercase, previous?.isLowercase == true { flush() }
        current.append(character)
      } else {
        flush()
      }
      previous = character
    }
    flush()
    return words
  }

  private static let stopWords: Set<String> = [
    "the", "a", "an", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "is", "it", "its",
    "be", "are", "was", "what", "whats", "which", "who", "how", "when", "where", "my", "me", "you", "your", "i",
    "this", "that", "these", "those", "do", "does", "did", "can", "could", "would", "please", "tell", "show",
    "give", "get", "set", "list", "current", "now", "some", "any", "all", "use", "using", "specific", "given",
    "there", "about", "into", "as", "if", "not", "no", "yes", "mcp", "server", "tool",
  ]
}
