/// What one sync of a collection did, for the terminal, the Accounts page and the log (counts and the names
/// of conflicting copies; never a password or a URL with one).
public struct SyncReport: Sendable, Hashable, Codable {
  public var collection: String
  /// Items that came from the server: new here, changed here, removed here.
  public var added = 0
  public var changed = 0
  public var removed = 0
  /// Items sent to the server: created there, changed there, deleted there.
  public var created = 0
  public var updated = 0
  public var deleted = 0
  /// Items both sides changed: merged field by field.
  public var merged = 0
  /// Items both sides changed in the same field: the server's version won and the local one was kept as a
  /// copy with this title.
  public var copies: [String] = []
  /// Members that could not be read, with the reason.
  public var unreadable: [String] = []
  /// Items here the server would not take (a read-only calendar), with the reason; they stay here.
  public var refused: [String] = []
  /// Members whose bodies this collection's sync read from the server (new or changed ones; never one read
  /// before at its tag, nor one the run's other collection of the same calendar read).
  public var fetched = 0
  /// Changes the server's sync token did not report, found by the daily listing beside it (the collection is
  /// synced by listing from then on).
  public var tokenMissed = 0
  /// Whether the collection's changes were found by its sync token (else by listing every entity tag).
  public var usedSyncToken = false

  public init(collection: String) { self.collection = collection }

  /// Whether anything moved either way.
  public var isEmpty: Bool { added + changed + removed + created + updated + deleted + merged == 0 && copies.isEmpty }

  /// One line for the terminal.
  public var summary: String {
    var parts: [String] = []
    if added + changed + removed > 0 { parts.append("from the server: +\(added) ~\(changed) -\(removed)") }
    if created + updated + deleted > 0 { parts.append("to the server: +\(created) ~\(updated) -\(deleted)") }
    if merged > 0 { parts.append("\(merged) merged") }
    if !copies.isEmpty { parts.append("\(copies.count) kept as a copy: \(copies.joined(separator: ", "))") }
    if tokenMissed > 0 {
      parts.append("\(tokenMissed) changes the server's sync token missed (listing every item from now on)")
    }
    if !unreadable.isEmpty { parts.append("\(unreadable.count) unreadable") }
    if !refused.isEmpty { parts.append("\(refused.count) refused by the server: \(refused.joined(separator: "; "))") }
    return "\(collection): " + (parts.isEmpty ? "in step" : parts.joined(separator: "; "))
  }
}
