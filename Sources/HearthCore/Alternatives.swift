public import Foundation

/// A place in a chat where it went more than one way: a regenerated answer or an edited message keeps what
/// was there before as an alternative the user can go back to.
///
/// The messages on screen are one path through the chat; a fork at `position` says that the messages from
/// `position` on are alternative `current` of `count`.
public struct MessageFork: Sendable, Hashable, Codable {
  /// The index of the first message that differs between the alternatives.
  public var position: Int
  /// How many alternatives there are (at least two).
  public var count: Int
  /// Which of them is shown, from 0.
  public var current: Int

  public init(position: Int, count: Int, current: Int) {
    self.position = position
    self.count = count
    self.current = current
  }
}

/// One alternative at a fork: the one shown (`tail == nil`: its messages are the chat's own from `position`
/// on) or one put aside, whose messages are kept in `tail`.
public struct SessionBranch: Sendable, Hashable, Codable {
  /// The index of the first message of this alternative.
  public var position: Int
  /// Its number among the fork's alternatives, from 0, in the order they were made.
  public var ordinal: Int
  /// The alternative's messages when it is not the one shown.
  public var tail: BranchTail?

  public init(position: Int, ordinal: Int, tail: BranchTail?) {
    self.position = position
    self.ordinal = ordinal
    self.tail = tail
  }
}

/// The messages of an alternative put aside, with what belongs to them: the sources their answers drew on
/// and the forks further down that path.
public struct BranchTail: Sendable, Hashable, Codable {
  enum CodingKeys: String, CodingKey {
    case messages
    case citations
    case branches
  }

  /// The messages, from the fork's position on, in order.
  public var messages: [StoredMessage]
  /// The sources of its answers, by message id.
  public var citations: [UUID: [Citation]]
  /// Forks within this alternative (positions after the fork's own).
  public var branches: [SessionBranch]

  public init(messages: [StoredMessage], citations: [UUID: [Citation]] = [:], branches: [SessionBranch] = []) {
    self.messages = messages
    self.citations = citations
    self.branches = branches
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    messages = try container.decode([StoredMessage].self, forKey: .messages)
    // JSON object keys are strings; ids are written as such.
    let cited = try container.decodeIfPresent([String: [Citation]].self, forKey: .citations) ?? [:]
    citations = [:]
    for (key, value) in cited {
      guard let id = UUID(uuidString: key) else {
        throw DecodingError.dataCorruptedError(
          forKey: .citations, in: container, debugDescription: "\(key) is not a message id")
      }
      citations[id] = value
    }
    branches = try container.decodeIfPresent([SessionBranch].self, forKey: .branches) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(messages, forKey: .messages)
    if !citations.isEmpty {
      try container.encode(
        Dictionary(uniqueKeysWithValues: citations.map { ($0.key.uuidString, $0.value) }), forKey: .citations)
    }
    if !branches.isEmpty { try container.encode(branches, forKey: .branches) }
  }
}

extension Array where Element == SessionBranch {
  /// The forks these alternatives make, in order of position.
  public var forks: [MessageFork] {
    Dictionary(grouping: self, by: \.position).compactMap { position, group in
      guard group.count > 1 else { return nil }
      let ordered = group.sorted { $0.ordinal < $1.ordinal }
      let current = ordered.firstIndex { $0.tail == nil } ?? 0
      return MessageFork(position: position, count: group.count, current: current)
    }.sorted { $0.position < $1.position }
  }
}
