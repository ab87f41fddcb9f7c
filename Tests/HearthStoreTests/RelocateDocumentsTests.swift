import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import HearthStore

@Suite("Documents follow a restored profile to its new folder")
struct RelocateDocumentsTests {
  @Test func sourcesChunksAndTheCitationsThatLeadToThemMoveAndNothingElseDoes() throws {
    let database = try HearthDatabase(
      path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
    let old = "/home/ana/.hearth/documents"
    let new = "/srv/restored/documents"
    let moved = MemorySource(
      id: "file:\(old)/trip.md", collection: .documents, title: "Trip", location: "\(old)/trip.md",
      contentHash: "h", byteCount: 9)
    let elsewhere = MemorySource(
      id: "file:/home/ana/.hearth/documents-old/x.md", collection: .documents, title: "X",
      location: "/home/ana/.hearth/documents-old/x.md", contentHash: "h", byteCount: 9)
    for source in [moved, elsewhere] {
      let chunk = MemoryChunk(
        id: source.id + "#0", sourceID: source.id, ordinal: 0, heading: "", text: "The ferry", start: 0, end: 9,
        tokenCount: 2)
      try database.replaceMemorySource(
        source, chunkIDs: [chunk.id], added: [EmbeddedChunk(chunk: chunk, vector: [1, 0])])
    }
    let session = try database.createSession(ChatSession(title: "Trip"))
    let answer = try database.appendMessage(
      StoredMessage(sessionID: session.id, index: 0, role: .assistant, content: "At 7:40 [1]."))
    let cited = [moved, elsewhere].enumerated().map { number, source in
      Citation(
        number: number + 1, sourceID: source.id, collection: .documents, title: source.title,
        location: source.location, heading: "", start: 0, end: 9)
    }
    try database.setCitations(cited, for: answer.id)

    #expect(try database.relocateDocuments(from: old, to: new) == 1)

    let sources = Dictionary(uniqueKeysWithValues: try database.memorySources().map { ($0.title, $0) })
    #expect(sources["Trip"]?.id == "file:\(new)/trip.md")
    #expect(sources["Trip"]?.location == "\(new)/trip.md")
    #expect(sources["X"]?.id == elsewhere.id)
    #expect(try database.memoryChunkIDs(of: "file:\(new)/trip.md") == ["file:\(old)/trip.md#0"])
    let citations = try #require(try database.citations(for: [answer.id])[answer.id])
    #expect(citations[0].sourceID == "file:\(new)/trip.md")
    #expect(citations[0].location == "\(new)/trip.md")
    #expect(citations[1].sourceID == elsewhere.id)
    #expect(citations[1].location == elsewhere.location)
    #expect(try database.integrityCheck() == ["ok"])
  }
}
