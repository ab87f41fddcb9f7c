import Foundation
import HearthCore
import HearthStore

/// Store timings on scratch databases filled with generated conversations.
enum StoreBenchmark {
  private static let vocabulary =
    ("time year people way day man thing woman life child world school state family student group country "
    + "problem hand part place case week company system program question work government number night point "
    + "home water room mother area money story fact month lot right study book eye job word business issue side "
    + "kind head house service friend father power hour game line end member law car city community name "
    + "president team minute idea kid body information back parent face others level office door health person "
    + "art war history party result change morning reason research girl guy moment air teacher force education").split(
      separator: " "
    ).map(String.init)

  /// Median milliseconds to load all messages of one session of `messages` messages.
  static func sessionLoad(in url: URL, messages: Int) throws -> Samples {
    let database = try HearthDatabase(path: url.path)
    var generator = SeededRandom(seed: 1)
    let session = ChatSession(title: "Large session")
    let export = SessionExport(
      session: session,
      messages: (0..<messages).map { index in
        StoredMessage(
          sessionID: session.id, index: index, role: index % 2 == 0 ? .user : .assistant,
          content: sentence(words: 40, using: &generator))
      })
    try database.importSession(export)
    var samples: [Double] = []
    for _ in 0..<5 {
      let start = ContinuousClock.now
      let loaded = try database.messages(in: session.id)
      samples.append((ContinuousClock.now - start).milliseconds)
      guard loaded.count == messages else { throw BenchmarkError.measurementFailed("loaded \(loaded.count)") }
    }
    return Samples(samples: samples)
  }

  /// Median milliseconds per search over `messages` messages in 100 sessions; the searched word appears in
  /// a few dozen of them.
  static func search(in url: URL, messages: Int) throws -> Samples {
    let database = try HearthDatabase(path: url.path)
    var generator = SeededRandom(seed: 2)
    let sessions = 100
    for sessionIndex in 0..<sessions {
      let session = ChatSession(title: "Session \(sessionIndex) " + sentence(words: 3, using: &generator))
      let count = messages / sessions
      try database.importSession(
        SessionExport(
          session: session,
          messages: (0..<count).map { index in
            var text = sentence(words: 30, using: &generator)
            if (sessionIndex * count + index) % 2_500 == 7 { text += " zeppelin" }
            return StoredMessage(
              sessionID: session.id, index: index, role: index % 2 == 0 ? .user : .assistant, content: text)
          }))
    }
    var samples: [Double] = []
    for _ in 0..<10 {
      let start = ContinuousClock.now
      let hits = try database.search("zeppelin", scope: .all, limit: 20)
      samples.append((ContinuousClock.now - start).milliseconds)
      guard !hits.isEmpty else { throw BenchmarkError.measurementFailed("the search found nothing") }
    }
    return Samples(samples: samples)
  }

  private static func sentence(words: Int, using generator: inout SeededRandom) -> String {
    (0..<words).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
  }
}
