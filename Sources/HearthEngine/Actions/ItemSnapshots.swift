import Foundation
import HearthCore
import HearthStore

/// The items an action can touch, kept as JSON in the audit log so a change can be undone exactly.
enum ItemSnapshot {
  case event(CalendarEvent)
  case reminder(Reminder)
  case note(Note)
  case habit(Habit)
  case habitLog(HabitLog)

  var kind: String {
    switch self {
    case .event: "event"
    case .reminder: "reminder"
    case .note: "note"
    case .habit: "habit"
    case .habitLog: "habitLog"
    }
  }

  var id: String {
    switch self {
    case .event(let item): item.id
    case .reminder(let item): item.id
    case .note(let item): item.id
    case .habit(let item): item.id
    case .habitLog(let item): item.id
    }
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }()

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()

  var json: JSONValue {
    func value(_ item: some Encodable) -> JSONValue {
      (try? Self.decoder.decode(JSONValue.self, from: Self.encoder.encode(item))) ?? .null
    }
    switch self {
    case .event(let item): return value(item)
    case .reminder(let item): return value(item)
    case .note(let item): return value(item)
    case .habit(let item): return value(item)
    case .habitLog(let item): return value(item)
    }
  }

  /// Reads a snapshot back; `nil` when the JSON does not hold an item of `kind`.
  init?(kind: String, json: JSONValue) {
    guard let data = try? Self.encoder.encode(json) else { return nil }
    func item<T: Decodable>(_ type: T.Type) -> T? { try? Self.decoder.decode(type, from: data) }
    switch kind {
    case "event": guard let value = item(CalendarEvent.self) else { return nil }; self = .event(value)
    case "reminder": guard let value = item(Reminder.self) else { return nil }; self = .reminder(value)
    case "note": guard let value = item(Note.self) else { return nil }; self = .note(value)
    case "habit": guard let value = item(Habit.self) else { return nil }; self = .habit(value)
    case "habitLog": guard let value = item(HabitLog.self) else { return nil }; self = .habitLog(value)
    default: return nil
    }
  }

  /// The item as stored now, `nil` when it is gone.
  static func current(kind: String, id: String, in database: HearthDatabase) throws -> ItemSnapshot? {
    switch kind {
    case "event": return try database.event(id).map(ItemSnapshot.event)
    case "reminder": return try database.reminder(id).map(ItemSnapshot.reminder)
    case "note": return try database.note(id).map(ItemSnapshot.note)
    case "habit": return try database.habit(id).map(ItemSnapshot.habit)
    case "habitLog": return try database.habitLog(id).map(ItemSnapshot.habitLog)
    default: return nil
    }
  }

  /// Writes the item as it is in the snapshot (adding it back when it is gone).
  func put(in database: HearthDatabase) throws {
    let exists = try Self.current(kind: kind, id: id, in: database) != nil
    switch self {
    case .event(let item): exists ? _ = try database.updateEvent(item) : try database.insertEvent(item)
    case .reminder(let item): exists ? _ = try database.updateReminder(item) : try database.insertReminder(item)
    case .note(let item): exists ? _ = try database.updateNote(item) : try database.insertNote(item)
    case .habit(let item): exists ? _ = try database.updateHabit(item) : try database.insertHabit(item)
    case .habitLog(let item): if !exists { try database.insertHabitLog(item) }
    }
  }

  /// Removes the item if it is still there.
  static func remove(kind: String, id: String, in database: HearthDatabase) throws {
    guard try current(kind: kind, id: id, in: database) != nil else { return }
    switch kind {
    case "event": try database.deleteEvent(id)
    case "reminder": try database.deleteReminder(id)
    case "note": try database.deleteNote(id)
    case "habit": try database.deleteHabit(id)
    case "habitLog": try database.deleteHabitLog(id)
    default: break
    }
  }
}
