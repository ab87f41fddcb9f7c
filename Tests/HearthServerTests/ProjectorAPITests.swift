import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("The vision projector chosen through the API, in process")
struct ProjectorAPITests {
  @Test func aFileThatIsNoProjectorIsRefusedByNameAndNothingIsChosen() async throws {
    try await LiveServer.inProcess { server in
      let view = try await server.request(.GET, "/api/models/projector")
      #expect(view.json?["source"]?.stringValue == "none", "\(view.body)")
      #expect(view.json?["path"] == nil)
      // The embedding model is a GGUF file, but has no vision or audio input.
      let embedding = try await server.request(
        .PUT, "/api/models/projector", body: #"{"path":"\#(TestModels.miniLM)"}"#)
      #expect(embedding.status == 400 && embedding.json?["error"]?["param"]?.stringValue == "path", "\(embedding.body)")
      #expect(embedding.body.contains("cannot be used"))
      let missing = try await server.request(
        .PUT, "/api/models/projector", body: #"{"path":"/nonexistent/mmproj.gguf"}"#)
      #expect(missing.status == 400 && missing.body.contains("no such file"), "\(missing.body)")
      let unknown = try await server.request(.PUT, "/api/models/projector", body: #"{"file":"x"}"#)
      #expect(unknown.status == 400 && unknown.json?["error"]?["param"]?.stringValue == "file")
      #expect(try await server.request(.GET, "/api/models/projector").json?["source"]?.stringValue == "none")
      let cleared = try await server.request(.DELETE, "/api/models/projector")
      #expect(cleared.status == 200 && cleared.json?["source"]?.stringValue == "none")
    }
  }
}
