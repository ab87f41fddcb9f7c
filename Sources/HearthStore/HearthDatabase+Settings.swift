import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  private static let chatSettingsKey = "chat"

  /// The user's saved chat settings (preset, sampling, system prompt), or the defaults.
  /// - Throws: ``StoreError`` when the database fails or the stored settings no longer decode.
  public func chatSettings() throws(StoreError) -> ChatSettings {
    try setting(Self.chatSettingsKey, as: ChatSettings.self) ?? ChatSettings()
  }

  /// Saves the user's chat settings.
  public func setChatSettings(_ settings: ChatSettings) throws(StoreError) {
    try setSetting(Self.chatSettingsKey, to: settings)
  }

  /// The stored value of the setting `key`, decoded from JSON, or `nil` when it was never set.
  /// - Throws: ``StoreError`` when the database fails or the stored value no longer decodes.
  public func setting<Value: Decodable>(_ key: String, as type: Value.Type) throws(StoreError) -> Value? {
    let text = try read { db in
      try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    }
    guard let text else { return nil }
    do {
      return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    } catch {
      throw .unavailable(path: path, detail: "the stored setting \(key) is unreadable: \(error)")
    }
  }

  /// Stores `value` as JSON under `key`, replacing what was there.
  public func setSetting<Value: Encodable>(_ key: String, to value: Value) throws(StoreError) {
    let text: String
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      text = String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw .unavailable(path: path, detail: "the setting \(key) cannot be encoded: \(error)")
    }
    try write { db in
      try db.execute(
        sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        arguments: [key, text])
    }
  }

  /// Forgets the setting `key` (nothing happens when it was never set).
  public func removeSetting(_ key: String) throws(StoreError) {
    try write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
  }
}
