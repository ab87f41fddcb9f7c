import Foundation
import HearthCore
import Testing

@Suite("Stop sequences over streamed pieces")
struct StopSequenceTests {
  /// Splits `text` into pieces at random places.
  private func pieces(_ text: String, seed: UInt64) -> [String] {
    var generator = SeededRandom(seed: seed)
    var result: [String] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      let length = Int.random(in: 1...4, using: &generator)
      result.append(String(rest.prefix(length)))
      rest = rest.dropFirst(length)
    }
    return result
  }

  @Test(arguments: 0..<200)
  func theShownTextIsEverythingBeforeTheFirstStop(seed: Int) {
    var generator = SeededRandom(seed: UInt64(seed) &+ 7)
    let words = ["Paris", "END", "EN", "D", "###", "#", "\n", "é", "🦙", "stop", " "]
    let text = (0..<Int.random(in: 0...14, using: &generator)).map { _ in words.randomElement(using: &generator)! }
      .joined()
    let stops = ["END", "###"]
    var matcher = StopSequenceMatcher(stops)
    var shown = ""
    for piece in pieces(text, seed: UInt64(seed)) {
      shown += matcher.feed(piece)
      if matcher.isStopped { break }
    }
    shown += matcher.flush()
    let firstStop = stops.compactMap { text.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
    #expect(shown == (firstStop.map { String(text[..<$0.lowerBound]) } ?? text), "\(text.debugDescription)")
    #expect(matcher.isStopped == (firstStop != nil))
  }

  @Test func textThatMightStartAStopIsHeldBackUntilItCannot() {
    var matcher = StopSequenceMatcher(["</answer>"])
    #expect(matcher.feed("The answer is 4 <") == "The answer is 4 ")
    #expect(matcher.feed("/ans") == "")
    #expect(matcher.feed("wer") == "")
    #expect(matcher.feed("ed") == "</answered")
    #expect(matcher.feed("</answer> more") == "")
    #expect(matcher.isStopped)
    #expect(matcher.feed("ignored") == "")
  }

  @Test func withoutStopsEverythingPassesAtOnce() {
    var matcher = StopSequenceMatcher(["", ""])
    #expect(!matcher.isActive)
    #expect(matcher.feed("abc") == "abc")
    #expect(matcher.flush() == "")
  }
}
