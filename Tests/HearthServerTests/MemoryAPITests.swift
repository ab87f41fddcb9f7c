import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOHTTP1
import Testing

@Suite("Embeddings and memory over HTTP (real embedding model)", .heavy)
struct MemoryAPITests {
  @Test("/v1/embeddings answers in OpenAI's shape, floats or base64, with usage")
  func embeddings() async throws {
    try await LiveServer.inProcess { server in
      let one = try await server.request(
        .POST, "/v1/embeddings", body: #"{"model":"all-MiniLM-L6-v2","input":"The cat sits on the mat."}"#)
      #expect(one.status == 200, "\(one.body)")
      #expect(one.json?["object"]?.stringValue == "list")
      #expect(one.json?["model"]?.stringValue == "all-MiniLM-L6-v2.f16.gguf")
      let values = one.json?["data"]?.arrayValue?.first?["embedding"]?.arrayValue ?? []
      let vector = values.compactMap(\.numberValue)
      #expect(vector.count == 384)
      #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-3)
      #expect((one.json?["usage"]?["prompt_tokens"]?.numberValue ?? 0) > 2)

      let many = try await server.request(
        .POST, "/v1/embeddings",
        body:
          #"{"model":"all-MiniLM-L6-v2.f16.gguf","input":["The cat sits on the mat.","A kitten rests on a rug."],"encoding_format":"base64"}"#
      )
      #expect(many.status == 200, "\(many.body)")
      let encoded = try #require(many.json?["data"]?.arrayValue?.first?["embedding"]?.stringValue)
      let bytes = try #require(Data(base64Encoded: encoded))
      let decoded = stride(from: 0, to: bytes.count, by: 4).map { offset in
        Float(
          bitPattern: bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) {
            $0 | UInt32($1.element) << (8 * $1.offset)
          })
      }
      #expect(decoded.count == 384)
      #expect(zip(decoded, vector).allSatisfy { abs(Double($0) - $1) < 1e-5 })
      #expect(many.json?["data"]?.arrayValue?.last?["index"]?.numberValue == 1)
    }
  }

  @Test("/v1/embeddings refuses what it does not do, naming the field")
  func embeddingsRefusals() async throws {
    try await LiveServer.inProcess { server in
      let cases: [(String, Int, String?)] = [
        (#"{"model":"all-MiniLM-L6-v2","input":"x","user":"u1"}"#, 400, "user"),
        (#"{"model":"all-MiniLM-L6-v2","input":[101,102]}"#, 400, "input"),
        (#"{"model":"all-MiniLM-L6-v2","input":""}"#, 400, "input"),
        (#"{"model":"all-MiniLM-L6-v2","input":[]}"#, 400, "input"),
        (#"{"model":"all-MiniLM-L6-v2","input":"x","dimensions":256}"#, 400, "dimensions"),
        (#"{"model":"all-MiniLM-L6-v2","input":"x","encoding_format":"int8"}"#, 400, nil),
        (#"{"model":"text-embedding-3-small","input":"x"}"#, 404, "model"),
        (#"{"model":"all-MiniLM-L6-v2"}"#, 400, nil),
      ]
      for (body, status, parameter) in cases {
        let reply = try await server.request(.POST, "/v1/embeddings", body: body)
        #expect(reply.status == status, "\(body) → \(reply.status) \(reply.body)")
        if let parameter { #expect(reply.json?["error"]?["param"]?.stringValue == parameter, "\(body)") }
      }
      let long = Array(repeating: "word", count: 1_000).joined(separator: " ")
      let tooLong = try await server.request(
        .POST, "/v1/embeddings", body: #"{"model":"all-MiniLM-L6-v2","input":["short","\#(long)"]}"#)
      #expect(tooLong.status == 400)
      #expect(tooLong.json?["error"]?["code"]?.stringValue == "context_length_exceeded")
      #expect(tooLong.json?["error"]?["message"]?.stringValue?.contains("input 1") == true)
    }
  }

  @Test("documents are uploaded, found with scores and sources, and forgotten")
  func memoryPage() async throws {
    try await LiveServer.inProcess { server in
      let markdown =
        "# Car\n\nThe car is a blue Skoda Octavia with plate KT-442.\n\n## Service\n\nNext inspection in June."
      let added = try await server.request(.POST, "/api/memory/documents?name=../../car.md", body: markdown)
      #expect(added.status == 201, "\(added.body)")
      let location = try #require(added.json?["source"]?["location"]?.stringValue)
      #expect(location.hasSuffix("/documents/car.md"))
      #expect(added.json?["source"]?["chunk_count"]?.numberValue == 2)

      let found = try await server.request(.GET, "/api/memory/search?q=what%20is%20my%20licence%20plate&k=3")
      let top = found.json?["hits"]?.arrayValue?.first
      #expect(top?["source"]?["location"]?.stringValue == location, "\(found.body)")
      #expect(top?["chunk"]?["text"]?.stringValue?.contains("KT-442") == true)
      #expect((top?["similarity"]?.numberValue ?? 0) > 0.3)
      #expect(top?["chunk"]?["start"]?.numberValue == 7)

      let persona = try await server.request(.PUT, "/api/memory/persona", body: #"{"text":"I am vegetarian."}"#)
      #expect(persona.json?["text"]?.stringValue == "I am vegetarian.")
      let overview = try await server.request(.GET, "/api/memory")
      #expect(overview.json?["available"] == .bool(true))
      #expect(overview.json?["persona"]?.stringValue == "I am vegetarian.")
      #expect(overview.json?["sources"]?.arrayValue?.count == 2)

      let binary = try await server.request(.POST, "/api/memory/documents?name=x.txt", body: "a\u{0}b")
      #expect(binary.status == 400 && binary.json?["error"]?["code"]?.stringValue == "invalid_file")
      let image = try await server.request(.POST, "/api/memory/documents?name=x.png", body: "png")
      #expect(image.status == 400)
      let nameless = try await server.request(.POST, "/api/memory/documents", body: "text")
      #expect(nameless.status == 400 && nameless.json?["error"]?["param"]?.stringValue == "name")

      let id = "file:" + location
      let removed = try await server.request(
        .DELETE, "/api/memory/sources?id=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
      #expect(removed.status == 200, "\(removed.body)")
      #expect(!FileManager.default.fileExists(atPath: location))
      let again = try await server.request(.GET, "/api/memory/search?q=Skoda&mode=keyword")
      #expect(again.json?["hits"]?.arrayValue?.isEmpty == true)
      #expect(try await server.request(.GET, "/api/memory/search?q=x&mode=psychic").status == 400)
    }
  }

  @Test("a chat's memory switch is kept per chat and shown with the chat")
  func memorySwitch() async throws {
    try await LiveServer.inProcess { server in
      let session = try await server.request(.POST, "/api/sessions", body: "{}")
      let id = try #require(session.json?["id"]?.stringValue)
      #expect(try await server.request(.GET, "/api/sessions/\(id)").json?["uses_memory"] == .bool(true))
      let off = try await server.request(.PUT, "/api/sessions/\(id)/memory", body: #"{"enabled":false}"#)
      #expect(off.json?["enabled"] == .bool(false))
      #expect(try await server.request(.GET, "/api/sessions/\(id)").json?["uses_memory"] == .bool(false))
      let wrong = try await server.request(.PUT, "/api/sessions/\(id)/memory", body: #"{"enabled":false,"x":1}"#)
      #expect(wrong.status == 400)
    }
  }
}
