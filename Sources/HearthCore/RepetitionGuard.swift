/// Finds an answer caught in a loop: a small model at temperature 0 with no repeat penalty can write one line or
/// two sentences over and over until its token limit ("A leaf's path, a leaf's path," eighty times). The loop is
/// cut where its second copy starts (at the end of the sentence or line before, when there is one in the
/// copy), so the answer keeps what it said once.
///
/// A loop is the end of the text made of the same passage back to back: three copies of a passage of 12 to 99
/// characters, or two of a longer one (up to 400). A passage must hold words (three letters and a space), so a
/// rule of `=====` or a row of dots is no loop; text inside an open code fence is never judged, as code repeats
/// lines on purpose.
public enum RepetitionGuard {
  /// The shortest passage a loop is made of, in Unicode scalars.
  public static let shortestPassage = 12
  /// The longest one looked for.
  public static let longestPassage = 400
  /// Passages this long or longer are a loop at two copies; shorter ones at three.
  public static let longPassage = 100

  /// Where the repeats begin when `text` ends in a loop (the end of the loop's first copy), else `nil`.
  public static func repeatsStart(in text: String) -> String.Index? {
    let scalars = text.unicodeScalars
    let window = Array(scalars.suffix(2 * longestPassage))
    let count = window.count
    guard count >= 3 * shortestPassage, !insideCodeFence(text) else { return nil }
    for length in shortestPassage...min(longestPassage, count / 2) {
      let copies = length < longPassage ? 3 : 2
      guard length * copies <= count else { continue }
      guard endsPeriodically(window, length: length, copies: copies) else { continue }
      guard holdsWords(window[(count - length)...]) else { continue }
      let cut = scalars.index(scalars.endIndex, offsetBy: -length * (copies - 1))
      return sentenceEnd(before: cut, within: length, in: scalars) ?? cut
    }
    return nil
  }

  /// Just after the last end of a sentence or line in the `within` scalars before `cut`: a loop is found as
  /// soon as its copies line up, which may be mid-sentence, and what is kept should end where a sentence does.
  private static func sentenceEnd(
    before cut: String.Index, within limit: Int, in scalars: String.UnicodeScalarView
  ) -> String.Index? {
    var index = cut
    for _ in 0..<limit {
      guard index > scalars.startIndex else { return nil }
      let previous = scalars.index(before: index)
      if sentenceEnds.contains(scalars[previous]) { return index }
      index = previous
    }
    return nil
  }

  private static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "\n", "\u{3002}"]

  /// Whether the last `copies` × `length` scalars repeat with that period (compared from the end, where a text
  /// that is no loop differs at once).
  private static func endsPeriodically(_ window: [Unicode.Scalar], length: Int, copies: Int) -> Bool {
    let count = window.count
    var index = count - 1
    while index >= count - length * (copies - 1) {
      if window[index] != window[index - length] { return false }
      index -= 1
    }
    return true
  }

  private static func holdsWords(_ passage: ArraySlice<Unicode.Scalar>) -> Bool {
    let letters = passage.filter { $0.properties.isAlphabetic }.count
    return letters >= 3 && passage.contains { $0.properties.isWhitespace }
  }

  /// Whether a code fence (three backticks) is open at the end of `text`.
  private static func insideCodeFence(_ text: String) -> Bool {
    var fences = 0
    var run = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "`") {
        run += 1
        if run == 3 {
          fences += 1
          run = 0
        }
      } else {
        run = 0
      }
    }
    return fences % 2 == 1
  }
}
