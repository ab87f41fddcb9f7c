public import Foundation
import HearthCore

/// An item of a file that was not imported, and why.
public struct SkippedItem: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The physical line the item starts on (1-based); 0 for a whole file.
  public var line: Int
  /// The item's name as the file gives it (a summary, a full name, a file name), when known.
  public var item: String?
  public var reason: String

  public init(line: Int, item: String?, reason: String) {
    self.line = line
    self.item = item
    self.reason = reason
  }

  public var description: String {
    "line \(line)\(item.map { " (\($0))" } ?? ""): \(reason)"
  }
}

/// What a reader made of a file: the items it could read, the ones it skipped, and the properties present in
/// the file that Hearth does not keep (named, with how often, so nothing is dropped without saying so).
public struct ParsedFile<Item: Sendable>: Sendable {
  public var items: [(item: Item, line: Int)]
  public var skipped: [SkippedItem]
  public var droppedProperties: [String: Int]

  public init(
    items: [(item: Item, line: Int)] = [], skipped: [SkippedItem] = [], droppedProperties: [String: Int] = [:]
  ) {
    self.items = items
    self.skipped = skipped
    self.droppedProperties = droppedProperties
  }

  /// `ATTENDEE ×3, VALARM ×1`, sorted by name.
  public var droppedSummary: String {
    droppedProperties.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
  }
}

/// Limits applied before a file is read.
public enum InterchangeLimits {
  /// The largest file Hearth reads in one import: 32 MiB (about 100,000 events).
  public static let maximumFileBytes = 32 << 20

  /// Now, to the second: files keep times to the second, so items read without a time stamp get one that
  /// survives a round trip.
  public static func wholeSecondNow() -> Date {
    Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
  }

  /// The text of `data`, refusing files over the limit and text that is not UTF-8 (a byte-order mark is
  /// dropped).
  public static func text(of data: Data, format: String) throws(InterchangeError) -> String {
    guard data.count <= maximumFileBytes else { throw .tooLarge(bytes: data.count, limit: maximumFileBytes) }
    guard var text = String(data: data, encoding: .utf8) else { throw .notUTF8(format: format) }
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    return text
  }
}

/// Ids for items a file gives none: the same item imported twice gets the same id, so it is replaced rather
/// than duplicated.
enum StableID {
  /// A stable hexadecimal hash of `text`.
  static func hash(_ text: String) -> String { StableHash.hex(text) }
}
