public import Foundation
import HearthStore

/// A prompt the user keeps at hand: a chip above the web app's composer, `/p NAME` in `hearth chat`.
public struct PinnedPrompt: Sendable, Hashable, Codable, Identifiable {
  public var id: UUID
  /// What the chip says; unique among the user's prompts, whatever the case.
  public var name: String
  /// What is sent.
  public var text: String

  public init(id: UUID = UUID(), name: String, text: String) {
    self.id = id
    self.name = name
    self.text = text
  }

  /// The longest name and text kept, and how many prompts.
  public static let nameLimit = 40
  public static let textLimit = 4_000
  public static let countLimit = 50
}

/// Why a pinned prompt could not be saved or found.
public enum PinnedPromptError: Error, Sendable, Hashable, CustomStringConvertible {
  case emptyName
  case emptyText
  case tooLong(field: String, limit: Int)
  case duplicate(String)
  case notFound(String, known: [String])
  case tooMany(limit: Int)
  case badPosition(Int, count: Int)

  public var description: String {
    switch self {
    case .emptyName: "a pinned prompt needs a name"
    case .emptyText: "a pinned prompt needs its text"
    case .tooLong(let field, let limit): "the \(field) is longer than \(limit) characters"
    case .duplicate(let name): "a prompt named “\(name)” is already pinned"
    case .notFound(let reference, let known):
      "no pinned prompt “\(reference)”"
        + (known.isEmpty ? " (none is pinned)" : " (pinned: \(known.joined(separator: ", ")))")
    case .tooMany(let limit): "at most \(limit) prompts can be pinned; unpin one first"
    case .badPosition(let position, let count): "position \(position) is not between 1 and \(count)"
    }
  }
}

extension Engine {
  private static let pinnedPromptsKey = "pinnedPrompts"

  /// The pinned prompts, in the user's order.
  public func pinnedPrompts() throws -> [PinnedPrompt] {
    try database.setting(Self.pinnedPromptsKey, as: [PinnedPrompt].self) ?? []
  }

  /// The prompt with this id, id prefix or name (any case).
  public func pinnedPrompt(_ reference: String) throws -> PinnedPrompt {
    let prompts = try pinnedPrompts()
    return prompts[try Self.index(of: reference, in: prompts)]
  }

  /// Pins a prompt at the end of the list.
  @discardableResult
  public func pinPrompt(name: String, text: String) throws -> PinnedPrompt {
    var prompts = try pinnedPrompts()
    guard prompts.count < PinnedPrompt.countLimit else {
      throw PinnedPromptError.tooMany(limit: PinnedPrompt.countLimit)
    }
    let prompt = PinnedPrompt(name: try Self.checkedName(name, among: prompts), text: try Self.checkedText(text))
    prompts.append(prompt)
    try database.setSetting(Self.pinnedPromptsKey, to: prompts)
    return prompt
  }

  /// Changes a pinned prompt's name, text or both.
  @discardableResult
  public func editPinnedPrompt(_ reference: String, name: String? = nil, text: String? = nil) throws -> PinnedPrompt {
    var prompts = try pinnedPrompts()
    let index = try Self.index(of: reference, in: prompts)
    if let name {
      var others = prompts
      others.remove(at: index)
      prompts[index].name = try Self.checkedName(name, among: others)
    }
    if let text { prompts[index].text = try Self.checkedText(text) }
    try database.setSetting(Self.pinnedPromptsKey, to: prompts)
    return prompts[index]
  }

  /// Moves a pinned prompt to `position` (1 is first) and gives the new order.
  @discardableResult
  public func movePinnedPrompt(_ reference: String, to position: Int) throws -> [PinnedPrompt] {
    var prompts = try pinnedPrompts()
    let index = try Self.index(of: reference, in: prompts)
    guard (1...prompts.count).contains(position) else {
      throw PinnedPromptError.badPosition(position, count: prompts.count)
    }
    let prompt = prompts.remove(at: index)
    prompts.insert(prompt, at: position - 1)
    try database.setSetting(Self.pinnedPromptsKey, to: prompts)
    return prompts
  }

  /// Unpins a prompt.
  public func unpinPrompt(_ reference: String) throws {
    var prompts = try pinnedPrompts()
    prompts.remove(at: try Self.index(of: reference, in: prompts))
    try database.setSetting(Self.pinnedPromptsKey, to: prompts)
  }

  private static func index(of reference: String, in prompts: [PinnedPrompt]) throws -> Int {
    let wanted = reference.trimmingCharacters(in: .whitespaces)
    if let index = prompts.firstIndex(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) {
      return index
    }
    let byID = prompts.indices.filter {
      wanted.count >= 4 && prompts[$0].id.uuidString.lowercased().hasPrefix(wanted.lowercased())
    }
    guard byID.count == 1 else { throw PinnedPromptError.notFound(reference, known: prompts.map(\.name)) }
    return byID[0]
  }

  private static func checkedName(_ name: String, among prompts: [PinnedPrompt]) throws -> String {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw PinnedPromptError.emptyName }
    guard name.count <= PinnedPrompt.nameLimit else {
      throw PinnedPromptError.tooLong(field: "name", limit: PinnedPrompt.nameLimit)
    }
    guard !prompts.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
      throw PinnedPromptError.duplicate(name)
    }
    return name
  }

  private static func checkedText(_ text: String) throws -> String {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw PinnedPromptError.emptyText }
    guard text.count <= PinnedPrompt.textLimit else {
      throw PinnedPromptError.tooLong(field: "text", limit: PinnedPrompt.textLimit)
    }
    return text
  }
}
