import Foundation
import HearthTestSupport
import Testing

@Suite("hearth index and hearth recall, run as a user would", .heavy)
struct MemoryCommandsTests {
  private func runner() throws -> CommandRunner {
    CommandRunner(environment: [
      "HEARTH_HOME": try TestModels.temporaryDirectory().path, "HEARTH_EMBEDDING_MODEL": TestModels.miniLM,
    ])
  }

  private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test("documents in a folder are indexed (bad ones skipped with reasons), recalled with their path, and removed")
  func indexRecallRemove() async throws {
    let hearth = try runner()
    let folder = try TestModels.temporaryDirectory()
    try
      "# Boiler\n\nThe Calora boiler's installer service code is 4719.\n\n## Noise\n\nIt knocks when the heating starts."
      .write(to: folder.appendingPathComponent("boiler.md"), atomically: true, encoding: .utf8)
    try "<h1>Rome</h1><p>Hotel Santa Chiara, booking code QX-7781.</p><script>x()</script>"
      .write(to: folder.appendingPathComponent("rome.html"), atomically: true, encoding: .utf8)
    try Data([0x00, 0x01, 0x02]).write(to: folder.appendingPathComponent("blob.txt"))
    try Data([0xFF, 0xD8]).write(to: folder.appendingPathComponent("photo.jpg"))

    let added = try await hearth.run(["index", "add", folder.path, "--json"])
    #expect(added.status == 0, "\(added.standardError)")
    let report = try #require(try json(added.standardOutput) as? [String: Any])
    #expect((report["indexed"] as? [[String: Any]])?.count == 2)
    let skipped = (report["skipped"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
    #expect(Set(skipped.map { URL(fileURLWithPath: $0).lastPathComponent }) == ["blob.txt", "photo.jpg"])

    let again = try await hearth.run(["index", "add", folder.path])
    #expect(
      again.standardOutput.contains("indexed 0 files (0 new chunks), 2 unchanged, 2 skipped"), "\(again.standardOutput)"
    )

    let recalled = try await hearth.run(["recall", "why does my heater knock in the morning", "--k", "2", "--json"])
    #expect(recalled.status == 0, "\(recalled.standardError)")
    let hits = try #require(try json(recalled.standardOutput) as? [[String: Any]])
    #expect(hits.first?["source"] as? String == folder.appendingPathComponent("boiler.md").path)
    #expect((hits.first?["text"] as? String)?.contains("knocks") == true)
    #expect(hits.first?["similarity"] is Double)
    let code = try await hearth.run(["recall", "QX-7781", "--json"])
    let first = try #require((try json(code.standardOutput) as? [[String: Any]])?.first)
    #expect((first["source"] as? String)?.hasSuffix("rome.html") == true)

    let removed = try await hearth.run(["index", "rm", folder.appendingPathComponent("rome.html").path])
    #expect(removed.status == 0 && removed.standardOutput.contains("removed file:"), "\(removed.standardError)")
    let listed = try await hearth.run(["index", "list", "--json"])
    let sources = try #require(try json(listed.standardOutput) as? [[String: Any]])
    #expect(sources.compactMap { $0["location"] as? String } == [folder.appendingPathComponent("boiler.md").path])
    // A file deleted from the folder leaves the memory when the folder is indexed again.
    try FileManager.default.removeItem(at: folder.appendingPathComponent("boiler.md"))
    let rescanned = try await hearth.run(["index", "add", folder.path])
    #expect(rescanned.standardOutput.contains("1 gone from disk and forgotten"), "\(rescanned.standardOutput)")
    let empty = try await hearth.run(["index", "list", "--json"])
    // (rome.html, forgotten by `index rm` but still in the folder, is indexed again with it.)
    let left = (try json(empty.standardOutput) as? [[String: Any]])?.compactMap { $0["location"] as? String }
    #expect(left == [folder.appendingPathComponent("rome.html").path])
    let unknown = try await hearth.run(["index", "rm", "file:/nowhere.md"])
    #expect(unknown.status != 0 && unknown.standardError.contains("nothing is indexed as file:/nowhere.md"))
  }

  @Test("a missing embedding model and a bad --k are clear errors")
  func badInput() async throws {
    let home = try TestModels.temporaryDirectory()
    let missing = CommandRunner(environment: [
      "HEARTH_HOME": home.path, "HEARTH_EMBEDDING_MODEL": "/nowhere/model.gguf",
    ])
    let recall = try await missing.run(["recall", "anything"])
    #expect(recall.status != 0)
    #expect(
      recall.standardError.contains("the embedding model is not installed at /nowhere/model.gguf"),
      "\(recall.standardError)")
    let k = try await runner().run(["recall", "anything", "--k", "0"])
    #expect(k.status != 0 && k.standardError.contains("--k must be between 1 and 100"))
  }
}
