import Foundation
import HearthCore
import Testing

@Suite("Decoding failures as one line naming the field")
struct DecodingFailureTests {
  struct Event: Decodable {
    var title: String
    var minutes: Int
  }
  struct Calendar: Decodable {
    var events: [Event]
  }

  private func failure(_ json: String) -> String {
    do {
      _ = try JSONDecoder().decode(Calendar.self, from: Data(json.utf8))
      return "decoded"
    } catch {
      return DecodingFailure.describe(error)
    }
  }

  @Test func eachKindNamesWhereItHappened() {
    #expect(failure("{not json") == "malformed JSON")
    #expect(failure(#"{"events":[{"minutes":3}]}"#) == "missing field title in events[0]")
    #expect(failure(#"{"events":[{"title":"A","minutes":"x"}]}"#) == "events[0].minutes should be an integer")
    #expect(failure(#"{"events":[{"title":null,"minutes":1}]}"#) == "events[0].title should be a string, not null")
    #expect(failure(#"{"events":"none"}"#).hasPrefix("events should be"))
    #expect(DecodingFailure.describe(CocoaError(.fileReadNoSuchFile)).isEmpty == false)
  }
}
