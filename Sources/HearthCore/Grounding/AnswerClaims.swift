import Foundation

/// One checkable statement in a text: a date, a clock time, a phone number, an e-mail address, a number, a proper
/// name or a claim that something was done, each in a normal form that the same fact written another way shares
/// ("30 November", "Nov 30th" and "2026-11-30" are one date; "2pm" and "14:00" one time).
public struct AnswerClaim: Sendable, Hashable, CustomStringConvertible {
  /// What sort of fact a claim states; the telemetry of replaced answers counts by it.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case date, weekday, time, phone, email, number, name, action
    /// Words about one of the user's items that no record of it holds ("Priya is a yoga instructor").
    case detail
    /// A citation of a memory passage the turn did not read, or a fact its cited passage does not hold.
    case citation
  }

  public var kind: Kind
  /// The normal form: `YYYY-MM-DD`, `HH:MM`, the digits of a number, the lower-cased address or name.
  public var value: String
  /// The words as the text wrote them.
  public var written: String

  public init(_ kind: Kind, _ value: String, written: String) {
    (self.kind, self.value, self.written) = (kind, value, written)
  }

  public var description: String { "\(kind.rawValue) “\(written)”" }
}

/// Reads the claims of a text (see ``AnswerClaim``). Dates without a year take `today`'s, or the next year's
/// when that day is more than half a year gone.
public struct ClaimReader: Sendable {
  public let today: LocalDate

  public init(today: LocalDate) { self.today = today }

  static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]

  /// Every date, time, phone number, e-mail address and longer number in `text`, in order of kind.
  public func facts(in text: String) -> [AnswerClaim] {
    var claims: [AnswerClaim] = []
    // "2026-11-27T12:30" (as records write a time) is a date and a time.
    var rest = text.replacingOccurrences(
      of: #"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})"#, with: "$1 $2", options: .regularExpression)
    // Read (and blank out) the longer forms first, so their digits are not read again as numbers.
    for (pattern, read) in readers {
      rest = Self.replacing(pattern, in: rest) { groups in
        if let claim = read(groups) { claims.append(claim) }
      }
    }
    return claims
  }

  /// The dates a text states, as `YYYY-MM-DD`.
  public func dates(in text: String) -> Set<String> {
    Set(facts(in: text).filter { $0.kind == .date }.map(\.value))
  }

  private var readers: [(String, ([String]) -> AnswerClaim?)] {
    let month =
      "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
      + "nov(?:ember)?|dec(?:ember)?)\\b\\.?"
    return [
      (#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#, { AnswerClaim(.email, $0[0].lowercased(), written: $0[0]) }),
      (
        #"\b(\d{4})-(\d{2})-(\d{2})\b"#,
        { g in
          LocalDate(year: Int(g[1]) ?? 0, month: Int(g[2]) ?? 0, day: Int(g[3]) ?? 0).map {
            AnswerClaim(.date, $0.description, written: g[0])
          }
        }
      ),
      (
        "(?i)\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? \(month)(?:,? (\\d{4}))?",
        { g in self.date(day: g[1], month: g[2], year: g[3], written: g[0]) }
      ),
      (
        "(?i)\\b\(month) (\\d{1,2})(?:st|nd|rd|th)?\\b(?:,? (\\d{4}))?",
        { g in self.date(day: g[2], month: g[1], year: g[3], written: g[0]) }
      ),
      (
        #"(?i)\b(1[0-2]|0?[1-9])(?::([0-5]\d))? ?([ap])\.?m\b\.?"#,
        { g in
          var hour = (Int(g[1]) ?? 0) % 12
          if g[3].lowercased() == "p" { hour += 12 }
          return AnswerClaim(.time, LocalDate.pad(hour, 2) + ":" + (g[2].isEmpty ? "00" : g[2]), written: g[0])
        }
      ),
      (
        #"\b([01]?\d|2[0-3])[:h]([0-5]\d)\b"#,
        { g in AnswerClaim(.time, LocalDate.pad(Int(g[1]) ?? 0, 2) + ":" + g[2], written: g[0]) }
      ),
      (
        #"\+?\d[\d \-().]{5,}\d"#,
        { g in
          let digits = g[0].filter(\.isNumber)
          return digits.count >= 6 ? AnswerClaim(.phone, String(digits), written: g[0]) : nil
        }
      ),
      (#"\b\d{2,}(?:[.,]\d+)?\b"#, { g in AnswerClaim(.number, g[0].filter { $0.isNumber }, written: g[0]) }),
    ]
  }

  private func date(day: String, month: String, year: String, written: String) -> AnswerClaim? {
    guard let dayNumber = Int(day),
      let index = Self.months.firstIndex(where: { $0.hasPrefix(String(month.lowercased().prefix(3))) })
    else { return nil }
    var date = LocalDate(year: Int(year) ?? today.year, month: index + 1, day: dayNumber)
    if year.isEmpty, let guessed = date, today.days(until: guessed) < -183 {
      date = LocalDate(year: today.year + 1, month: index + 1, day: dayNumber)
    }
    return date.map { AnswerClaim(.date, $0.description, written: written) }
  }

  /// `text` with each match of `pattern` blanked (spaces of the same length), `found` told its groups ("" for a
  /// group that did not take part).
  static func replacing(_ pattern: String, in text: String, found: ([String]) -> Void) -> String {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
    let whole = text as NSString
    let matches = expression.matches(in: text, range: NSRange(location: 0, length: whole.length))
    let result = NSMutableString(string: text)
    for match in matches.reversed() {
      let groups = (0..<match.numberOfRanges).map { index -> String in
        let range = match.range(at: index)
        return range.location == NSNotFound ? "" : whole.substring(with: range)
      }
      found(groups)
      result.replaceCharacters(in: match.range, with: String(repeating: " ", count: match.range.length))
    }
    return result as String
  }
}
