public import Foundation

/// A named assistant the user made: who it is (its own instructions in place of Hearth's identity), a
/// backstory it keeps (whole in the prompt when it fits, else its start there and the pieces nearest each
/// question retrieved), and, when chosen, its own model and sampling preset. A chat is started with one and
/// keeps it.
public struct Persona: Sendable, Hashable, Codable, Identifiable {
  /// The fields a persona is read from and written as.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case id, name
    case systemPrompt = "system_prompt"
    case backstory, model, preset
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  public var id: UUID
  /// What the user calls it; unique, whatever the case.
  public var name: String
  /// Who it is and how it speaks, in place of Hearth's own opening ("You are Hearth, …"); `nil` keeps that.
  public var systemPrompt: String?
  /// What it knows of its own life; empty for none.
  public var backstory: String
  /// The installed chat model that answers for it (file name or registry id); `nil` for the chosen one.
  public var model: String?
  /// Its sampling values; `nil` for the user's chat settings.
  public var preset: ChatSettings.Preset?
  public var createdAt: Date
  public var updatedAt: Date

  /// The longest name.
  public static let maximumNameLength = 60
  /// The longest system prompt: about a thousand tokens, always given whole (a backstory is what grows).
  public static let maximumPromptLength = 4_000
  /// The longest backstory: a few thousand words.
  public static let maximumBackstoryLength = 40_000

  public init(
    id: UUID = UUID(), name: String, systemPrompt: String? = nil, backstory: String = "", model: String? = nil,
    preset: ChatSettings.Preset? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.name = name
    self.systemPrompt = systemPrompt
    self.backstory = backstory
    self.model = model
    self.preset = preset
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// The persona with surrounding white space taken off its texts, and empty optional texts as none.
  public var normalized: Persona {
    var persona = self
    persona.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    persona.systemPrompt = systemPrompt?.trimmingCharacters(in: .whitespacesAndNewlines)
    if persona.systemPrompt?.isEmpty == true { persona.systemPrompt = nil }
    persona.backstory = backstory.trimmingCharacters(in: .whitespacesAndNewlines)
    persona.model = model?.trimmingCharacters(in: .whitespacesAndNewlines)
    if persona.model?.isEmpty == true { persona.model = nil }
    return persona
  }

  /// Checks every field against its rule.
  public func validate() throws(PersonaError) {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    if name.isEmpty { throw .invalid(field: "name", "is empty") }
    if name.count > Self.maximumNameLength {
      throw .invalid(field: "name", "has \(name.count) characters; at most \(Self.maximumNameLength)")
    }
    if name.contains(where: \.isNewline) { throw .invalid(field: "name", "is more than one line") }
    if let systemPrompt, systemPrompt.count > Self.maximumPromptLength {
      throw .invalid(
        field: "system_prompt", "has \(systemPrompt.count) characters; at most \(Self.maximumPromptLength)")
    }
    if backstory.count > Self.maximumBackstoryLength {
      throw .invalid(field: "backstory", "has \(backstory.count) characters; at most \(Self.maximumBackstoryLength)")
    }
    if preset == .custom {
      throw .invalid(field: "preset", "custom is the user's own values; choose precise, balanced or creative")
    }
  }
}

/// A persona that cannot be made, found or used as asked.
public enum PersonaError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A field breaks a rule; the text says which.
  case invalid(field: String, String)
  /// No persona has this id or name.
  case notFound(String)
  /// Another persona has this name already.
  case nameTaken(String)

  public var description: String {
    switch self {
    case .invalid(let field, let reason): "persona \(field): \(reason)"
    case .notFound(let reference): "no persona named or numbered \(reference)"
    case .nameTaken(let name): "a persona named \(name) exists already"
    }
  }
}

extension PersonaError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .invalid(let field, _): ErrorCategory(.invalid, parameter: field)
    case .notFound: ErrorCategory(.notFound, code: "persona_not_found")
    case .nameTaken: ErrorCategory(.conflict, code: "persona_name_taken")
    }
  }
}
