import Foundation
import HearthTestSupport
import Testing

@Suite("A model spread over two ggml-rpc-server workers on loopback", .heavy)
struct RPCTests {
  @Test func theLayersRunOnTheWorkersAndTheAnswerMatchesALocalOne() async throws {
    let workers = [try RPCWorker(), try RPCWorker()]
    defer { workers.forEach { $0.stop() } }
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    // A fixed system prompt: the default one carries the date and time, which may change between the runs.
    let question = [
      "ask", "What is the capital of France?", "--system", "Answer briefly.", "--temperature", "0", "--max-tokens",
      "12",
      "--json",
    ]
    let local = try await hearth.run(question)
    #expect(local.status == 0, "\(local.standardError)")
    let spread = try await hearth.run(question + ["--rpc", workers.map(\.endpoint).joined(separator: ",")])
    #expect(spread.status == 0, "\(spread.standardError)")
    func answer(_ output: String) throws -> String? {
      (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["text"] as? String
    }
    let text = try #require(try answer(spread.standardOutput))
    #expect(!text.isEmpty)
    // The same weights and kernels on the workers: greedy decoding gives the same words.
    #expect(text == (try answer(local.standardOutput)))
    for worker in workers {
      #expect(worker.printed.localizedCaseInsensitiveContains("accepted client connection"), "\(worker.printed)")
    }

    // A worker that is not there is named; nothing is loaded half-way.
    let gone = try await hearth.run(question + ["--rpc", "127.0.0.1:\(try NginxServer.freePort())"])
    #expect(gone.status == 1)
    #expect(gone.standardError.contains("cannot be used"))
  }
}
