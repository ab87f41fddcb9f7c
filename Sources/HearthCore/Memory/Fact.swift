public import Foundation

/// One thing the user told Hearth about themselves, kept as they said it ("I'm allergic to nuts", "My
/// brother's name is Tomas"): shown on the Memory page with where it came from, given to the model in every
/// turn while it holds, and changed or forgotten only as the user asks.
public struct Fact: Sendable, Hashable, Codable, Identifiable {
  public var id: String
  /// The statement, in the user's words.
  public var text: String
  /// The chat the user said it in; `nil` when it was typed on the Memory page or the command line.
  public var sessionID: UUID?
  /// The message it came from.
  public var messageID: UUID?
  /// The last day it holds ("I'm in Lisbon until Friday"); `nil` while it is not changed.
  public var expires: LocalDate?
  /// A pinned fact is in every prompt, whatever else must be left out.
  public var isPinned: Bool
  /// The earlier fact this one took the place of (a statement it contradicts): that one is kept, as history,
  /// and holds again if this one is undone or forgotten.
  public var replaces: String?
  public var createdAt: Date
  public var updatedAt: Date

  /// The longest statement kept: a fact is a sentence or two, not a document.
  public static let maximumLength = 300

  public init(
    id: String = UUID().uuidString, text: String, sessionID: UUID? = nil, messageID: UUID? = nil,
    expires: LocalDate? = nil, isPinned: Bool = false, replaces: String? = nil, createdAt: Date = Date(),
    updatedAt: Date? = nil
  ) {
    self.id = id
    self.text = text
    self.sessionID = sessionID
    self.messageID = messageID
    self.expires = expires
    self.isPinned = isPinned
    self.replaces = replaces
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }

  /// Whether it still holds on `day`: a fact past its last day is kept, but no longer told to the model.
  public func holds(on day: LocalDate) -> Bool { expires.map { $0 >= day } ?? true }

  /// Where it came from, in words: "said in a chat" or "typed".
  public var origin: String { sessionID == nil ? "typed" : "said in a chat" }

  public func validate() throws(PersonalDataError) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { throw .invalid(field: "text", "is empty") }
    if trimmed.count > Self.maximumLength {
      throw .invalid(field: "text", "has \(trimmed.count) characters; a fact holds at most \(Self.maximumLength)")
    }
    if replaces == id { throw .invalid(field: "replaces", "names the fact itself") }
  }
}

extension Fact: PersonalItem {}
