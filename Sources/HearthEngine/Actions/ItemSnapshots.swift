import Foundation
import HearthCore
import HearthStore

/// Items as the audit log keeps them: JSON, so that a change can be shown and undone exactly.
extension StoredItem {
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
    case .contact(let item): return value(item)
    case .fact(let item): return value(item)
    }
  }

  /// Reads a kept item back; `nil` when the JSON does not hold an item of `kind`.
  init?(kind: ItemKind, json: JSONValue) {
    guard let data = try? Self.encoder.encode(json) else { return nil }
    func item<T: Decodable>(_ type: T.Type) -> T? { try? Self.decoder.decode(type, from: data) }
    switch kind {
    case .event: guard let value = item(CalendarEvent.self) else { return nil }; self = .event(value)
    case .reminder: guard let value = item(Reminder.self) else { return nil }; self = .reminder(value)
    case .note: guard let value = item(Note.self) else { return nil }; self = .note(value)
    case .habit: guard let value = item(Habit.self) else { return nil }; self = .habit(value)
    case .habitLog: guard let value = item(HabitLog.self) else { return nil }; self = .habitLog(value)
    case .contact: guard let value = item(Contact.self) else { return nil }; self = .contact(value)
    case .fact: guard let value = item(Fact.self) else { return nil }; self = .fact(value)
    }
  }
}
