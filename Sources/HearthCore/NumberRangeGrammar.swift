/// GBNF for JSON numbers within a schema's `minimum` and `maximum`, written digit by digit so generation can
/// only produce a number in range: every whole number in the range for `integer`, and for `number` the
/// decimals in a range whose bounds are whole and not negative (`0…1`, `1…5`, `0…100`: what schemas for scores,
/// ratings and shares say). Other decimal ranges return `nil` and are not enforced.
enum NumberRangeGrammar {
  /// The largest bound written out; the `integer` rule allows 16 digits.
  static let largest = 999_999_999_999_999

  /// The grammar for a whole number from `least` to `most` (either open when `nil`); `nil` when a bound is
  /// beyond ``largest`` either way.
  static func integer(least: Int?, most: Int?) -> String? {
    guard (least.map { abs($0) <= largest } ?? true), (most.map { abs($0) <= largest } ?? true) else { return nil }
    var alternatives: [String] = []
    // Below zero: "-" and the magnitude, from the larger magnitude down to the smaller.
    if least.map({ $0 < 0 }) ?? true {
      let smallest = max(1, -(most ?? -1))
      if let least {
        if smallest <= -least { alternatives += magnitudes(smallest, -least).map { #""-" "# + $0 } }
      } else {
        alternatives += magnitudes(smallest, nil).map { #""-" "# + $0 }
      }
    }
    if most.map({ $0 >= 0 }) ?? true {
      alternatives += magnitudes(max(least ?? 0, 0), most)
    }
    return alternatives.isEmpty ? nil : alternatives.map { "( \($0) )" }.joined(separator: " | ")
  }

  /// The grammar for a decimal from `least` to `most` when both bounds are whole and `least` is 0 or more;
  /// `nil` otherwise.
  static func number(least: Double?, most: Double?) -> String? {
    // Without a minimum the range reaches below zero, which these patterns do not write.
    guard let lower = least, lower >= 0, lower == lower.rounded(), lower <= Double(largest) else { return nil }
    let fraction = #"( "." [0-9]+ )?"#
    guard let most else { return integer(least: Int(lower), most: nil).map { "( \($0) ) \(fraction)" } }
    guard most == most.rounded(), most <= Double(largest), most >= lower else { return nil }
    let top = Int(most)
    let exactTop = #""\#(top)" ( "." "0"+ )?"#
    guard top > Int(lower), let below = integer(least: Int(lower), most: top - 1) else { return exactTop }
    return "( \(below) ) \(fraction) | \(exactTop)"
  }

  /// Patterns for the magnitudes (no sign, no leading zeros) from `low` to `high`, open above when `nil`.
  private static func magnitudes(_ low: Int, _ high: Int?) -> [String] {
    guard let high else {
      // Up to the last number of `low`'s length, then every longer one the integer rule allows.
      let length = String(low).count
      let lastOfLength = Int(String(repeating: "9", count: length))!
      var patterns = magnitudes(low, lastOfLength)
      if length < 16 { patterns.append("[1-9] [0-9]{\(length),15}") }
      return patterns
    }
    guard low <= high else { return [] }
    var patterns: [String] = []
    var start = low
    // Split where the number of digits changes, so each part has one length.
    while start <= high {
      let length = String(start).count
      let end = min(high, Int(String(repeating: "9", count: length))!)
      patterns += sameLength(Array(String(start)), Array(String(end)))
      start = end + 1
    }
    return patterns
  }

  /// Patterns for the numbers between two digit strings of one length.
  private static func sameLength(_ low: [Character], _ high: [Character]) -> [String] {
    if low == high { return [#""\#(String(low))""#] }
    let rest = low.count - 1
    let tail = rest > 0 ? " [0-9]{\(rest)}" : ""
    if low.dropFirst().allSatisfy({ $0 == "0" }) && high.dropFirst().allSatisfy({ $0 == "9" }) {
      return [digits(low[0], high[0]) + tail]
    }
    if low[0] == high[0] {
      return sameLength(Array(low.dropFirst()), Array(high.dropFirst())).map { #""\#(low[0])" "# + $0 }
    }
    var patterns = sameLength(Array(low.dropFirst()), Array(repeating: "9", count: rest)).map {
      #""\#(low[0])" "# + $0
    }
    let first = low[0].wholeNumberValue! + 1
    let last = high[0].wholeNumberValue! - 1
    if first <= last { patterns.append(digits(Character("\(first)"), Character("\(last)")) + tail) }
    patterns += sameLength(Array(repeating: "0", count: rest), Array(high.dropFirst())).map {
      #""\#(high[0])" "# + $0
    }
    return patterns
  }

  private static func digits(_ from: Character, _ to: Character) -> String {
    from == to ? #""\#(from)""# : "[\(from)-\(to)]"
  }
}
