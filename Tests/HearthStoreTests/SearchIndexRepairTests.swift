import Foundation
import GRDB
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthStore

@Suite("A full-text index that no longer matches its rows is rebuilt from them")
struct SearchIndexRepairTests {
  @Test func aNoteLostFromItsIndexIsFoundAgainAfterTheRepairAndASoundIndexIsLeftAlone() throws {
    let database = try HearthDatabase(
      path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
    try database.write(.insert(.note(Note(title: "Boiler", body: "The boiler service is due in March"))))
    try database.write(.insert(.note(Note(title: "Ferry", body: "It leaves at 7:40 from pier 3"))))
    #expect(try database.repairSearchIndexes() == [])
    #expect(try database.searchNotes("boiler").map(\.note.title) == ["Boiler"])

    // The index told to forget a row the table still holds, as a write that bypassed its triggers would.
    try database.write { db in
      try db.execute(
        sql: """
          INSERT INTO note_fts(note_fts, rowid, title, body)
          SELECT 'delete', rowid, title, body FROM note WHERE title = 'Boiler'
          """)
    }
    #expect(try database.searchNotes("boiler").isEmpty)

    #expect(try database.repairSearchIndexes() == ["note_fts"])
    #expect(try database.searchNotes("boiler").map(\.note.title) == ["Boiler"])
    #expect(try database.searchNotes("ferry").map(\.note.title) == ["Ferry"])
    #expect(try database.repairSearchIndexes() == [])
  }
}
