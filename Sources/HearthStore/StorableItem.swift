public import HearthCore

/// An item kind the store keeps in a table of its own. Every kind is read, written, deleted and imported
/// through the same generic calls on ``HearthDatabase``, and the same ``ItemWrite`` an action commits.
public protocol StorableItem: Sendable, Identifiable<String> {
  /// The kind, as the audit log and the surfaces name it.
  static var kind: ItemKind { get }
  /// The item wrapped as one of any kind.
  var stored: StoredItem { get }
  /// The item inside `stored`, `nil` when it is of another kind.
  init?(_ stored: StoredItem)
}

extension CalendarEvent: StorableItem {
  public static var kind: ItemKind { .event }
  public var stored: StoredItem { .event(self) }
  public init?(_ stored: StoredItem) {
    guard case .event(let item) = stored else { return nil }
    self = item
  }
}

extension Reminder: StorableItem {
  public static var kind: ItemKind { .reminder }
  public var stored: StoredItem { .reminder(self) }
  public init?(_ stored: StoredItem) {
    guard case .reminder(let item) = stored else { return nil }
    self = item
  }
}

extension Note: StorableItem {
  public static var kind: ItemKind { .note }
  public var stored: StoredItem { .note(self) }
  public init?(_ stored: StoredItem) {
    guard case .note(let item) = stored else { return nil }
    self = item
  }
}

extension Habit: StorableItem {
  public static var kind: ItemKind { .habit }
  public var stored: StoredItem { .habit(self) }
  public init?(_ stored: StoredItem) {
    guard case .habit(let item) = stored else { return nil }
    self = item
  }
}

extension HabitLog: StorableItem {
  public static var kind: ItemKind { .habitLog }
  public var stored: StoredItem { .habitLog(self) }
  public init?(_ stored: StoredItem) {
    guard case .habitLog(let item) = stored else { return nil }
    self = item
  }
}

extension Contact: StorableItem {
  public static var kind: ItemKind { .contact }
  public var stored: StoredItem { .contact(self) }
  public init?(_ stored: StoredItem) {
    guard case .contact(let item) = stored else { return nil }
    self = item
  }
}

extension Fact: StorableItem {
  public static var kind: ItemKind { .fact }
  public var stored: StoredItem { .fact(self) }
  public init?(_ stored: StoredItem) {
    guard case .fact(let item) = stored else { return nil }
    self = item
  }
}
