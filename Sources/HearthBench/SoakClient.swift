import AsyncHTTPClient
import Foundation
import HearthCore
import NIOCore
import NIOHTTP1

/// One simulated user of the soak: a seeded random mix of what people do, one request after another.
struct SoakClient: Sendable {
  let http: HTTPClient
  let base: String

  struct Sample: Sendable {
    var kind: SoakBenchmark.Kind
    var milliseconds: Double
    var outcome: Outcome
  }

  enum Outcome: Sendable {
    case served
    /// Cut short by the client, or told to come back (a backup already under way).
    case byTheClient
    case failed(String)
  }

  private static let words = ["ferry", "dentist", "boiler", "garden", "invoice", "piano", "train", "lemon"]

  func drive(until deadline: ContinuousClock.Instant, seed: UInt64, client: Int) async -> [Sample] {
    var random = SeededRandom(seed: seed)
    var samples: [Sample] = []
    var count = 0
    let kinds = SoakBenchmark.Kind.allCases
    let total = kinds.reduce(0) { $0 + $1.weight }
    while ContinuousClock.now < deadline {
      var pick = Double.random(in: 0..<total, using: &random)
      // Each client first goes through every kind once (from a kind of its own), so even a short soak has
      // done all of them; then the weighted mix.
      let kind =
        count < kinds.count
        ? kinds[(client + count) % kinds.count]
        : kinds.first {
          pick -= $0.weight; return pick < 0
        } ?? .notices
      let word = Self.words[Int.random(in: 0..<Self.words.count, using: &random)]
      count += 1
      let started = ContinuousClock.now
      let outcome = await perform(kind, word: word, tag: "\(client)-\(count)", number: count)
      let elapsed = ContinuousClock.now - started
      samples.append(
        Sample(
          kind: kind,
          milliseconds: Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15, outcome: outcome))
    }
    return samples
  }

  private func perform(_ kind: SoakBenchmark.Kind, word: String, tag: String, number: Int) async -> Outcome {
    do {
      switch kind {
      case .chat:
        let session = try await json(.POST, "/api/sessions", #"{"title":"Soak \#(tag)"}"#)
        guard let id = session["id"] as? String else { return .failed("no session id") }
        return try await expect(
          .POST, "/api/sessions/\(id)/turns", #"{"text":"What should I pack for the \#(word) trip?"}"#)
      case .completion:
        return try await expect(
          .POST, "/v1/chat/completions",
          #"{"model":"soak","max_tokens":16,"messages":[{"role":"user","content":"Tell me about the \#(word)."}]}"#)
      case .stopped:
        let session = try await json(.POST, "/api/sessions", #"{"title":"Soak stopped \#(tag)"}"#)
        guard let id = session["id"] as? String else { return .failed("no session id") }
        return try await stopHalfway(
          session: id, #"{"text":"Write a long story about a \#(word), chapter by chapter."}"#)
      case .hungUp:
        return try await hangUp(
          "/v1/chat/completions",
          #"{"model":"soak","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"A story about a \#(word)."}]}"#
        )
      case .anthropic:
        return try await expect(
          .POST, "/v1/messages",
          #"{"model":"soak","max_tokens":16,"messages":[{"role":"user","content":"Say \#(word)."}]}"#)
      case .importNote:
        return try await expect(
          .POST, "/api/notes/import?name=soak-\(tag).md",
          "# \(word.capitalized) \(tag)\n\nThe \(word) note of \(tag).\n")
      case .search:
        return try await expect(
          .GET, number % 2 == 0 ? "/api/sessions/search?q=\(word)" : "/api/memory/search?q=\(word)", nil)
      case .notices:
        return try await expect(.GET, "/api/notices", nil)
      case .calendar:
        let day = 1 + number % 27
        return try await expect(
          .POST, "/api/calendar/events",
          #"{"title":"\#(word.capitalized) \#(tag)","start":"2027-01-\#(String(format: "%02d", day))T10:00","end":"2027-01-\#(String(format: "%02d", day))T11:00"}"#
        )
      case .backup:
        return try await expect(.POST, "/api/backups", "{}", busyIsTheClients: true)
      }
    } catch {
      return .failed("transport: \(type(of: error))")
    }
  }

  private func request(_ method: HTTPMethod, _ path: String, _ body: String?) -> HTTPClientRequest {
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(string: body))
    }
    return request
  }

  private func expect(
    _ method: HTTPMethod, _ path: String, _ body: String?, busyIsTheClients: Bool = false
  ) async throws -> Outcome {
    let response = try await http.execute(request(method, path, body), timeout: .seconds(600))
    let bytes = try await response.body.collect(upTo: 64 << 20)
    if (200..<300).contains(response.status.code) {
      // A streamed turn reports a failure inside its stream.
      let text = String(buffer: bytes)
      if path.hasSuffix("/turns"), text.contains("event: error") { return .failed("turn: error event") }
      return .served
    }
    if busyIsTheClients, response.status == .conflict { return .byTheClient }
    return .failed("\(path.split(separator: "?").first ?? ""): status \(response.status.code)")
  }

  private func json(_ method: HTTPMethod, _ path: String, _ body: String?) async throws -> [String: Any] {
    let response = try await http.execute(request(method, path, body), timeout: .seconds(60))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]) ?? [:]
  }

  /// Starts a turn, presses Stop once its stream has begun (as the page's Stop button does), then reads the
  /// stream to its end: served when the stop was taken and the turn ended without an error.
  private func stopHalfway(session: String, _ body: String) async throws -> Outcome {
    let path = "/api/sessions/\(session)/turns"
    let response = try await http.execute(request(.POST, path, body), timeout: .seconds(600))
    guard response.status == .ok else { return .failed("\(path): status \(response.status.code)") }
    var stream = response.body.makeAsyncIterator()
    var text = ""
    if let first = try await stream.next() { text += String(buffer: first) }
    let stop = try await http.execute(request(.POST, "/api/sessions/\(session)/stop", nil), timeout: .seconds(60))
    _ = try await stop.body.collect(upTo: 1 << 16)
    guard stop.status == .ok else { return .failed("/api/sessions/:id/stop: status \(stop.status.code)") }
    while let piece = try await stream.next() { text += String(buffer: piece) }
    return text.contains("event: error") ? .failed("stopped turn: error event") : .served
  }

  /// Reads the first piece of a streamed answer, then hangs up as a closed tab does.
  private func hangUp(_ path: String, _ body: String) async throws -> Outcome {
    let response = try await http.execute(request(.POST, path, body), timeout: .seconds(600))
    guard response.status == .ok else { return .failed("\(path): status \(response.status.code)") }
    for try await _ in response.body { break }
    return .byTheClient
  }
}
