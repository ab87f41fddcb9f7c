/// One message of a conversation, as the model sees it.
public struct ChatMessage: Sendable, Hashable, Codable {
  /// Who wrote a message.
  public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    case system
    case user
    case assistant
  }

  /// Who wrote the message.
  public var role: Role
  /// The message text.
  public var content: String

  /// Creates a message.
  public init(role: Role, content: String) {
    self.role = role
    self.content = content
  }

  /// A system message.
  public static func system(_ content: String) -> ChatMessage { .init(role: .system, content: content) }
  /// A user message.
  public static func user(_ content: String) -> ChatMessage { .init(role: .user, content: content) }
  /// An assistant message.
  public static func assistant(_ content: String) -> ChatMessage { .init(role: .assistant, content: content) }
}
