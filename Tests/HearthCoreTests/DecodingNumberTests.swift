import Foundation
import HearthCore
import Testing

@Suite("A number that does not fit its field is named, though Foundation names none")
struct DecodingNumberTests {
  struct Options: Decodable {
    var model: String
    var maxTokens: Int?
    var seed: UInt32?
    var stop: [String]?
    var stream: Bool?
    var messages: [Message]?
    struct Message: Decodable {
      var role: String
      var weight: UInt8?
    }
  }

  private func refusal(_ text: String) -> (line: String, field: String?) {
    let data = Data(text.utf8)
    let decoder = JSONDecoder()
    do {
      _ = try decoder.decode(Options.self, from: data)
      return ("decoded", nil)
    } catch {
      let placed = DecodingFailure.located(error, decoding: Options.self, from: data, with: decoder)
      return (DecodingFailure.describe(placed), DecodingFailure.field(placed))
    }
  }

  @Test(
    "each wrong number is named by its place, with what is wrong with it",
    arguments: [
      (#"{"model":"m","seed":-1}"#, "seed", "out of this field's range"),
      (#"{"model":"m","seed":5000000000,"stream":true}"#, "seed", "out of this field's range"),
      (#"{"maxTokens":1.5,"model":"m"}"#, "maxTokens", "should be a whole number"),
      (#"{"model":"m","maxTokens":1e30}"#, "maxTokens", "out of this field's range"),
      (
        #"{"model":"m","messages":[{"role":"user","weight":3},{"role":"user","weight":300}]}"#, "messages[1].weight",
        "300"
      ),
    ])
  func named(text: String, field: String, says: String) {
    let (line, named) = refusal(text)
    #expect(named == field)
    #expect(line.contains(says), "\(line)")
  }

  @Test("a required field missing, a true where a number goes and broken JSON keep their own errors")
  func othersUnchanged() {
    #expect(refusal(#"{"maxTokens":3}"#).line == "missing field model")
    #expect(refusal(#"{"model":"m","maxTokens":true}"#).field == "maxTokens")
    #expect(refusal(#"{"model":"m","maxTokens":"#) == ("malformed JSON", nil))
    #expect(refusal(#"{"model":"m","maxTokens":3,"seed":7}"#).line == "decoded")
  }

  @Test("the search is bounded: past its budget the error stays as Foundation gave it")
  func bounded() {
    let data = Data(#"{"model":"m","maxTokens":1.5}"#.utf8)
    let decoder = JSONDecoder()
    #expect(throws: DecodingError.self) { try decoder.decode(Options.self, from: data) }
    do {
      _ = try decoder.decode(Options.self, from: data)
    } catch {
      let placed = DecodingFailure.located(error, decoding: Options.self, from: data, with: decoder, maxBytes: 4)
      #expect(DecodingFailure.field(placed) == nil)
    }
  }
}
