public import Foundation
public import HearthCore

/// A conversation as other assistants keep it: messages in a tree, each with its parent, where editing a
/// message or asking again starts a new branch. Hearth keeps the branch shown (from the first message to the
/// current one) as the chat, and every other branch as a version at the fork where it left.
public struct ConversationTree: Sendable {
  /// One message of the tree; one that is not `shown` (a system prompt, a tool's output, an empty or hidden
  /// message) is passed through: its children hang from its nearest shown ancestor.
  public struct Node: Sendable {
    public var id: String
    public var parent: String?
    public var role: ChatMessage.Role
    public var text: String
    public var created: Date?
    public var shown: Bool

    public init(id: String, parent: String?, role: ChatMessage.Role, text: String, created: Date?, shown: Bool) {
      (self.id, self.parent, self.role, self.text, self.created, self.shown) = (id, parent, role, text, created, shown)
    }
  }

  public var id: String
  public var title: String
  public var created: Date?
  public var updated: Date?
  /// In the order the export lists them; a node's children keep that order.
  public var nodes: [Node]
  /// The last message of the branch shown; `nil` follows the latest branch at every fork.
  public var current: String?

  public init(id: String, title: String, created: Date?, updated: Date?, nodes: [Node], current: String?) {
    (self.id, self.title, self.created, self.updated, self.nodes, self.current) =
      (id, title, created, updated, nodes, current)
  }

  /// The messages kept: those shown by any branch.
  public var keptCount: Int { nodes.filter(\.shown).count }

  /// The conversation as a session with its versions: the branch to `current` shown, every other one an
  /// alternative at its fork (nested where a branch forks again).
  public func export(sessionID: UUID) -> SessionExport {
    var byID: [String: Node] = [:]
    var children: [String: [String]] = [:]
    var roots: [String] = []
    for node in nodes where byID[node.id] == nil {
      byID[node.id] = node
    }
    for node in nodes {
      if let parent = node.parent, byID[parent] != nil {
        children[parent, default: []].append(node.id)
      } else {
        roots.append(node.id)
      }
    }
    // The shown children of a node: its children, with those not shown replaced by theirs.
    func shownChildren(_ ids: [String], depth: Int = 0) -> [String] {
      ids.flatMap { id -> [String] in
        guard let node = byID[id] else { return [] }
        if node.shown || depth > 64 { return node.shown ? [id] : [] }
        return shownChildren(children[id] ?? [], depth: depth + 1)
      }
    }
    // The shown branch, from the first message to the current one.
    var path: [String] = []
    var cursor = current.flatMap { byID[$0] }
    var seen = Set<String>()
    while let node = cursor, seen.insert(node.id).inserted {
      if node.shown { path.append(node.id) }
      cursor = node.parent.flatMap { byID[$0] }
    }
    path.reverse()

    let base = created ?? Date(timeIntervalSince1970: 0)
    func stored(_ id: String, _ index: Int) -> StoredMessage {
      let node = byID[id]!
      return StoredMessage(
        sessionID: sessionID, index: index, role: node.role, content: node.text, createdAt: node.created ?? base)
    }
    // The messages from `parent`'s chosen child down, and the forks along them.
    func walk(after parent: String?, at position: Int, following shown: [String]) -> ([StoredMessage], [SessionBranch])
    {
      var messages: [StoredMessage] = []
      var branches: [SessionBranch] = []
      var kids = shownChildren(parent.map { children[$0] ?? [] } ?? roots)
      var position = position
      var shown = shown[...]
      while !kids.isEmpty, position < 100_000 {
        let next = shown.first.flatMap { kids.contains($0) ? $0 : nil } ?? kids.last!
        shown = shown.dropFirst()
        if kids.count > 1 {
          for (ordinal, kid) in kids.enumerated() {
            guard kid != next else {
              branches.append(SessionBranch(position: position, ordinal: ordinal, tail: nil))
              continue
            }
            let (rest, inner) = walk(after: kid, at: position + 1, following: [])
            branches.append(
              SessionBranch(
                position: position, ordinal: ordinal,
                tail: BranchTail(messages: [stored(kid, position)] + rest, branches: inner)))
          }
        }
        messages.append(stored(next, position))
        kids = shownChildren(children[next] ?? [])
        position += 1
      }
      return (messages, branches)
    }
    let (messages, branches) = walk(after: nil, at: 0, following: path)
    let session = ChatSession(
      id: sessionID, title: title.isEmpty ? "Imported chat" : title, createdAt: base,
      updatedAt: updated ?? messages.last?.createdAt ?? base)
    return SessionExport(session: session, messages: messages, branches: branches)
  }
}
