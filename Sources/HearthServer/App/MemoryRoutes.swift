import Foundation
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore
import Hummingbird

/// The web app's memory API: what is indexed, document uploads, removal, search with scores and the persona
/// text (each chat's memory switch is a session's).
struct MemoryRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var memory: MemoryService { dependencies.engine.memory }

  var paths: [RouterPath] { ["/api/memory"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try await self.overview() }
    router.post("documents") { request, _ in
      guard let name = request.uri.queryParameters.get("name"), !name.isEmpty else {
        throw APIError.invalidRequest("name (the file name) is required", parameter: "name")
      }
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let outcome = try await memory.addUpload(name: name, data: data)
      return try AppJSON.make(
        IndexedSource(source: outcome.source, added: outcome.added, unchanged: outcome.unchanged), status: .created)
    }
    router.delete("sources") { request, _ in
      guard let id = request.uri.queryParameters.get("id"), !id.isEmpty else {
        throw APIError.invalidRequest("id (the source id) is required", parameter: "id")
      }
      return try AppJSON.make(try await memory.remove(id))
    }
    router.get("search") { request, _ in
      guard let query = request.uri.queryParameters.get("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty
      else { throw APIError.invalidRequest("q (what to look for) is required", parameter: "q") }
      let k = try RouteInput.integer(request, "k", default: 8, in: 1...50)
      let modeText = request.uri.queryParameters.get("mode") ?? "hybrid"
      guard let mode = RetrievalMode(rawValue: String(modeText)) else {
        throw APIError.invalidRequest("mode must be hybrid, vector or keyword", parameter: "mode")
      }
      let hits = try await memory.recall(query, options: RetrievalOptions(k: k, mode: mode))
      return try AppJSON.make(["hits": hits])
    }
    router.put("persona") { request, _ in
      let input = try await RequestReader.decodeStrict(
        PersonaInput.self, from: request, limit: configuration.maxBodyBytes)
      try await memory.setPersona(input.text)
      return try AppJSON.make(PersonaInput(text: try memory.persona()))
    }
  }

  private func overview() async throws -> Response {
    let counts = try memory.counts()
    return try AppJSON.make(
      MemoryOverview(
        available: memory.isAvailable, embeddingModel: memory.embedder.name,
        index: try memory.indexIdentity(), persona: try memory.persona(),
        collections: MemoryCollection.allCases.map {
          .init(name: $0, sources: counts[$0]?.sources ?? 0, chunks: counts[$0]?.chunks ?? 0)
        },
        sources: try memory.sources()))
  }
}

struct MemoryOverview: Encodable {
  struct Count: Encodable {
    var name: MemoryCollection
    var sources: Int
    var chunks: Int
  }
  var available: Bool
  var embeddingModel: String
  var index: MemoryIndexIdentity?
  var persona: String
  var collections: [Count]
  var sources: [MemorySource]
}

struct IndexedSource: Encodable {
  var source: MemorySource
  var added: Int
  var unchanged: Bool
}

struct PersonaInput: StrictInput, Encodable {
  var text: String
  enum CodingKeys: String, CodingKey, CaseIterable { case text }
}

struct MemorySwitch: StrictInput, Encodable {
  var enabled: Bool
  enum CodingKeys: String, CodingKey, CaseIterable { case enabled }
}
