import Foundation
import HearthTestSupport
import Testing

@Suite("hearth bench soak", .heavy)
struct BenchSoakCommandTests {
  @Test func aShortSoakServesEveryClientWithoutAFailureAndLeavesASoundProfile() async throws {
    let hearth = CommandRunner(environment: [
      "HEARTH_HOME": try TestModels.temporaryDirectory().path, "HEARTH_MODEL": TestModels.smolLM2,
      "HEARTH_EMBEDDING_MODEL": TestModels.miniLM,
    ])
    // Memory is still filling 7 s in (the warm-up of a 36-second run: caches, the embedding model, slots), so
    // growth is held to the 30-minute soak's 10 % only there; here it is reported and bounded loosely.
    let result = try await hearth.run([
      "bench", "soak", "--minutes", "0.6", "--clients", "3", "--max-growth", "100", "--json",
    ])
    #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError.suffix(3_000))")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result)")
    #expect(report["failures"] as? Int == 0)
    #expect(report["integrity"] as? [String] == ["ok"])
    #expect(report["stopped_cleanly"] as? Bool == true)
    #expect(report["leaked_descriptors"] as? Int == 0, "\(report["leaked"] ?? [])")
    #expect((report["requests"] as? Int ?? 0) >= 20)
    let kinds = try #require(report["kinds"] as? [[String: Any]])
    let handled = Dictionary(
      uniqueKeysWithValues: kinds.map {
        ($0["kind"] as? String ?? "", ($0["served"] as? Int ?? 0) + ($0["by_the_client"] as? Int ?? 0))
      })
    for kind in ["chat", "chat stopped", "completion", "completion hung up", "search", "import"] {
      #expect((handled[kind] ?? 0) > 0, "\(kind) never ran: \(handled)")
    }
    #expect((report["resident_at_end"] as? Int ?? 0) > 0)
    #expect(report["max_growth"] as? Double == 1.0)
  }
}
