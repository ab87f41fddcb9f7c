public import Foundation
import GRDB
public import HearthCore

extension HearthDatabase {
  /// A session and all its messages.
  public func export(_ sessionID: UUID) throws(StoreError) -> SessionExport {
    SessionExport(session: try session(sessionID), messages: try messages(in: sessionID))
  }

  /// Imports an export in one transaction: either all of it is stored or nothing. When a session with the
  /// same id exists, the import gets fresh ids so that nothing is overwritten.
  @discardableResult
  public func importSession(_ export: SessionExport) throws(StoreError) -> ChatSession {
    guard export.format == 1 else { throw .invalidImport("unknown export format \(export.format)") }
    let ordered = export.messages.sorted { $0.index < $1.index }
    guard ordered.map(\.index) == Array(0..<ordered.count) else {
      throw .invalidImport("message positions must run from 0 without gaps")
    }
    guard ordered.allSatisfy({ $0.sessionID == export.session.id }) else {
      throw .invalidImport("a message belongs to another session")
    }
    guard Set(ordered.map(\.id)).count == ordered.count else { throw .invalidImport("duplicate message ids") }
    return try write { db in
      var session = export.session
      var messages = ordered
      let clash =
        try SessionRow.exists(db, key: session.id.uuidString)
        || MessageRow.filter(keys: messages.map(\.id.uuidString)).fetchCount(db) > 0
      if clash {
        session.id = UUID()
        messages = messages.map { message in
          var copy = message
          copy.id = UUID()
          copy.sessionID = session.id
          return copy
        }
      }
      try SessionRow(session).insert(db)
      for message in messages { try MessageRow(message).insert(db) }
      return session
    }
  }
}
