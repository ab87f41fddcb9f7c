import Foundation
public import HearthCore
public import HearthInterchange
import HearthStore

/// What an import did: items added and replaced (same id), items skipped with the reason and line, and
/// properties of the file Hearth does not keep.
public struct ImportSummary: Sendable, Hashable, Codable, CustomStringConvertible {
  public var kind: String
  public var added: Int
  public var replaced: Int
  public var skipped: [SkippedItem]
  public var droppedProperties: [String: Int]

  public var description: String {
    var lines = ["\(added) \(kind)s added, \(replaced) replaced, \(skipped.count) skipped"]
    lines += skipped.map { "  skipped \($0)" }
    if !droppedProperties.isEmpty {
      let names = droppedProperties.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
      lines.append("  not kept (Hearth has no field for them): \(names.joined(separator: ", "))")
    }
    return lines.joined(separator: "\n")
  }
}

/// Why the user's data could not be changed, as every surface reports it.
public enum ItemReferenceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No item of the kind has an id equal to or starting with the reference.
  case notFound(kind: ItemKind, reference: String)
  /// Several ids start with the reference.
  case ambiguous(kind: ItemKind, reference: String, candidates: [String])

  public var description: String {
    switch self {
    case .notFound(let kind, let reference): "no \(kind.rawValue) with id \(reference)"
    case .ambiguous(let kind, let reference, let candidates):
      "\(reference) matches several \(kind.rawValue)s (\(candidates.joined(separator: ", "))); give more of the id"
    }
  }
}

/// What the item services share: the database, the user's clock, and the import pipeline.
struct ItemContext: Sendable {
  let database: HearthDatabase
  let timeZone: TimeZone
  /// The current time: the system's, or a fixed day for evaluations.
  var clock: @Sendable () -> Date = { Date() }

  /// Now, to the second (the precision stored and exported).
  func now() -> Date { Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down)) }

  /// The full id of the one item `reference` names (a whole id or the start of one).
  func resolve(_ kind: ItemKind, _ reference: String) throws -> String {
    let ids = try database.itemIDs(kind, matching: reference)
    switch ids.count {
    case 0: throw ItemReferenceError.notFound(kind: kind, reference: reference)
    case 1: return ids[0]
    default: throw ItemReferenceError.ambiguous(kind: kind, reference: reference, candidates: ids)
    }
  }

  /// `item` checked and stamped as new.
  func created<Item: PersonalItem>(_ item: Item) throws(PersonalDataError) -> Item {
    var item = item
    item.createdAt = now()
    item.updatedAt = item.createdAt
    try item.validate()
    return item
  }

  /// `item` checked and stamped as changed now.
  func changed<Item: PersonalItem>(_ item: Item) throws(PersonalDataError) -> Item {
    var item = item
    item.updatedAt = now()
    try item.validate()
    return item
  }

  /// Prepares (`prepare`) and validates each parsed item, skips the ones that fail and repeated ids
  /// (reported with their lines), and writes the rest in one transaction.
  func importItems<Item: PersonalItem>(
    _ parsed: ParsedFile<Item>, kind: String, name: (Item) -> String, prepare: (Item) -> Item = { $0 },
    write: ([Item]) throws(StoreError) -> ImportCounts
  ) throws -> ImportSummary {
    var skipped = parsed.skipped
    var firstLine: [String: Int] = [:]
    var accepted: [Item] = []
    for (parsedItem, line) in parsed.items {
      let item = prepare(parsedItem)
      if let first = firstLine[item.id] {
        skipped.append(
          SkippedItem(line: line, item: name(item), reason: "id \(item.id) repeats the item at line \(first)"))
        continue
      }
      do {
        try item.validate()
      } catch {
        skipped.append(SkippedItem(line: line, item: name(item), reason: error.description))
        continue
      }
      firstLine[item.id] = line
      accepted.append(item)
    }
    let counts = try write(accepted)
    return ImportSummary(
      kind: kind, added: counts.added, replaced: counts.replaced, skipped: skipped.sorted { $0.line < $1.line },
      droppedProperties: parsed.droppedProperties)
  }
}
