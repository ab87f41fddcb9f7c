import Foundation
import Testing

@testable import HearthCore

@Suite("snake_case JSON: typed names converted, data kept as written")
struct SnakeCaseJSONTests {
  private struct Sample: Encodable {
    var isAllDay = true
    var messageID = "m"
    var payload = JSONValue.object([("startTime", .string("09:00")), ("additionalProperties", .bool(false))])
    var counts: [String: Int] = ["camelKey": 1]
    var nested = Nested()
  }

  private struct Nested: Encodable {
    var byWeekday = ["MO"]
    var schema = JSONValue.object([("minLength", .number(2))])
  }

  @Test func typedNamesBecomeSnakeCaseWhileAPayloadsAndADictionarysKeysStay() throws {
    let encoder = SnakeCaseJSON.encoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(Sample()), as: UTF8.self)
    #expect(
      text
        == #"{"counts":{"camelKey":1},"is_all_day":true,"message_id":"m","nested":{"by_weekday":["MO"],"schema":{"minLength":2}},"payload":{"additionalProperties":false,"startTime":"09:00"}}"#
    )
  }

  @Test func aPayloadKeepsItsKeysUnderAPlainEncoderToo() throws {
    let text = String(
      decoding: try JSONEncoder().encode(JSONValue.object([("startTime", .string("x"))])), as: UTF8.self)
    #expect(text == #"{"startTime":"x"}"#)
  }

  /// The CLI wrote Foundation's conversion before; the names stay what they were.
  @Test(arguments: [
    "isAllDay", "messageID", "sourceID", "baseURLText", "p95Ms", "tokensPerSecond", "kvCacheBytes", "sha256",
    "already_snake", "downloadURLs", "utf8Count", "lastSyncAt", "x", "timeToFirstTokenMs", "isHTTPS", "gpuLayers",
  ])
  func theConversionIsFoundations(name: String) throws {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    struct One: Encodable {
      var name: String
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key(stringValue: name))
      }
    }
    let foundation = JSONEncoder()
    foundation.keyEncodingStrategy = .convertToSnakeCase
    let expected = try JSONSerialization.jsonObject(with: foundation.encode(One(name: name))) as? [String: Int]
    #expect(expected?.keys.first == SnakeCaseJSON.snakeCase(name))
  }
}
