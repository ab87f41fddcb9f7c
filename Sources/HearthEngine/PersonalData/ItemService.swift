import Foundation
public import HearthCore
import HearthInterchange
public import HearthStore

/// A kind of the user's items that an ``ItemService`` keeps.
public protocol ServiceItem: StorableItem, PersonalItem {
  /// The item as it is stored: fields with one canonical form put in it (tags, an all-day series' end).
  func canonical() -> Self
}

extension ServiceItem {
  /// Most kinds store what they are given.
  public func canonical() -> Self { self }
}

extension Reminder: ServiceItem {}
extension Contact: ServiceItem {}
extension Habit: ServiceItem {}

extension Note: ServiceItem {
  public func canonical() -> Note {
    var note = self
    note.tags = Note.normalized(note.tags)
    return note
  }
}

extension CalendarEvent: ServiceItem {
  /// An all-day series ends with its last day; exceptions are kept once, in order.
  public func canonical() -> CalendarEvent {
    var event = self
    if event.isAllDay, let until = event.recurrence?.until {
      event.recurrence?.until = LocalDateTime(startOf: until.date).adding(seconds: 86_399)
    }
    event.exceptions = Array(Set(event.exceptions)).sorted()
    return event
  }
}

/// One kind of the user's items, found by id or the start of one, created, changed, deleted and imported the
/// same way whatever the kind: checked and stamped with the time before anything is written. Each kind adds
/// its own reads and rules in an extension (`ItemService<Reminder>.due(by:)`, habits' check-ins).
public struct ItemService<Item: ServiceItem>: Sendable {
  let context: ItemContext

  /// The item `reference` names: its whole id or the start of one.
  /// - Throws: ``ItemReferenceError`` when none or several match.
  public func item(_ reference: String) throws -> Item {
    let id = try context.resolve(Item.kind, reference)
    guard let item = try context.database.item(Item.self, id: id) else {
      throw StoreError.itemNotFound(kind: Item.kind.noun, id: id)
    }
    return item
  }

  /// Adds an item, checked first.
  public func create(_ item: Item) throws -> Item {
    let item = try prepared(new: item)
    try context.database.insert(item)
    return item
  }

  /// Replaces an item, checked first.
  public func update(_ item: Item) throws -> Item {
    let item = try prepared(changed: item)
    try context.database.update(item)
    return item
  }

  /// Deletes an item, returning it (so it can be restored).
  @discardableResult
  public func delete(_ reference: String) throws -> Item {
    try context.database.delete(Item.self, id: try context.resolve(Item.kind, reference))
  }

  /// Puts back an item exactly as it was (after a deletion).
  public func restore(_ item: Item) throws {
    try item.validate()
    try context.database.write(.put(item.stored))
  }

  /// `item` as ``create(_:)`` would store it, checked and stamped, without storing it.
  func prepared(new item: Item) throws -> Item { try context.created(item.canonical()) }

  /// `item` as ``update(_:)`` would store it, checked and stamped, without storing it.
  func prepared(changed item: Item) throws -> Item { try context.changed(item.canonical()) }

  /// Checks each parsed item, skips the ones that fail and repeated ids (reported with their lines), and
  /// writes the rest in one transaction.
  func importing(_ parsed: ParsedFile<Item>, name: (Item) -> String) throws -> ImportSummary {
    try context.importItems(
      parsed, kind: Item.kind.noun, name: name, prepare: { $0.canonical() },
      write: { items throws(StoreError) in try context.database.importItems(items) })
  }
}

extension StoredItem {
  /// A planned change as its kind's service would store it: canonical, checked and stamped with the time.
  func prepared(in context: ItemContext) throws -> StoredItem {
    switch self {
    case .event(let item): .event(try ItemService(context: context).prepared(changed: item))
    case .reminder(let item): .reminder(try ItemService(context: context).prepared(changed: item))
    case .note(let item): .note(try ItemService(context: context).prepared(changed: item))
    case .habit(let item): .habit(try ItemService(context: context).prepared(changed: item))
    case .contact(let item): .contact(try ItemService(context: context).prepared(changed: item))
    case .fact(let item): .fact(try ItemService(context: context).prepared(changed: item))
    case .habitLog: self
    }
  }
}
