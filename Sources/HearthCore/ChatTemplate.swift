public import Foundation

/// A way to start a chat the user keeps: instructions the chat is answered by (in place of Hearth's own
/// opening; the user's data and the actions follow as in any chat) and a first message put in the box.
public struct ChatTemplate: Sendable, Hashable, Codable, Identifiable {
  /// The fields a template is read from and written as.
  public enum CodingKeys: String, CodingKey, CaseIterable {
    case id, name, instructions
    case firstMessage = "first_message"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  public var id: UUID
  /// What the user calls it; unique, whatever the case.
  public var name: String
  /// The system prompt a chat started from it is answered by; `nil` keeps Hearth's own.
  public var instructions: String?
  /// The message a chat started from it opens with in the box, for the user to send or change; `nil` for none.
  public var firstMessage: String?
  public var createdAt: Date
  public var updatedAt: Date

  public static let maximumNameLength = 60
  /// As long as a persona's own prompt, and for the same reason: it is sent whole with every turn.
  public static let maximumInstructionsLength = Persona.maximumPromptLength
  public static let maximumFirstMessageLength = 4_000

  public init(
    id: UUID = UUID(), name: String, instructions: String? = nil, firstMessage: String? = nil,
    createdAt: Date = Date(), updatedAt: Date? = nil
  ) {
    self.id = id
    self.name = name
    self.instructions = instructions
    self.firstMessage = firstMessage
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// The template with surrounding white space taken off its texts, and empty texts as none.
  public var normalized: ChatTemplate {
    func trimmed(_ text: String?) -> String? {
      let text = text?.trimmingCharacters(in: .whitespacesAndNewlines)
      return text?.isEmpty == true ? nil : text
    }
    var template = self
    template.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    template.instructions = trimmed(instructions)
    template.firstMessage = trimmed(firstMessage)
    return template
  }

  /// Checks every field against its rule: a name of one line, and instructions or a first message.
  public func validate() throws(ChatTemplateError) {
    let template = normalized
    if template.name.isEmpty { throw .invalid(field: "name", "is empty") }
    if template.name.count > Self.maximumNameLength {
      throw .invalid(field: "name", "has \(template.name.count) characters; at most \(Self.maximumNameLength)")
    }
    if template.name.contains(where: \.isNewline) { throw .invalid(field: "name", "is more than one line") }
    if let instructions = template.instructions, instructions.count > Self.maximumInstructionsLength {
      throw .invalid(
        field: "instructions", "has \(instructions.count) characters; at most \(Self.maximumInstructionsLength)")
    }
    if let first = template.firstMessage, first.count > Self.maximumFirstMessageLength {
      throw .invalid(
        field: "first_message", "has \(first.count) characters; at most \(Self.maximumFirstMessageLength)")
    }
    if template.instructions == nil, template.firstMessage == nil {
      throw .invalid(field: "instructions", "is empty and so is first_message: a template needs one of them")
    }
  }
}

/// A template that cannot be made, found or used as asked.
public enum ChatTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A field breaks a rule; the text says which.
  case invalid(field: String, String)
  /// No template has this id or name.
  case notFound(String)
  /// Another template has this name already.
  case nameTaken(String)

  public var description: String {
    switch self {
    case .invalid(let field, let reason): "template \(field): \(reason)"
    case .notFound(let reference): "no template named or numbered \(reference)"
    case .nameTaken(let name): "a template named \(name) exists already"
    }
  }
}

extension ChatTemplateError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .invalid(let field, _): ErrorCategory(.invalid, parameter: field)
    case .notFound: ErrorCategory(.notFound, code: "template_not_found")
    case .nameTaken: ErrorCategory(.conflict, code: "template_name_taken")
    }
  }
}
