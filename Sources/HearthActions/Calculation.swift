import Foundation

/// A sum or a conversion asked in words, worked out by code: a small model cannot count ("17 × 23 = 381").
/// "what's 17 times 23", "12 x 12", "square root of 144", "15% of 80", "2 to the power of 10", "convert 100
/// fahrenheit to celsius", "5 km in miles", "how many minutes in three and a half hours". Only a request that
/// is the sum and nothing more is read: "add 3 things to my list" is not one.
public struct Calculation: Sendable, Equatable {
  /// The answer in words: "17 × 23 = 391."
  public var answer: String

  /// The sum `request` asks for, worked out; `nil` when the request is anything more or less than a sum.
  public init?(_ request: String) {
    guard let words = Self.question(request) else { return nil }
    guard let answer = Self.conversion(words) ?? Self.function(words) ?? Self.arithmetic(words) else { return nil }
    self.answer = answer
  }

  // MARK: Reading the words

  /// The request's words without its asking ("what's", "calculate", "please", "?"), lower case.
  static func question(_ request: String) -> [String]? {
    var text = " " + request.lowercased().replacingOccurrences(of: "’", with: "'") + " "
    for mark in ["?", "!", ",", "=", ";"] { text = text.replacingOccurrences(of: mark, with: " ") }
    for sign in ["+", "*", "×", "÷", "%", "^"] { text = text.replacingOccurrences(of: sign, with: " \(sign) ") }
    text = text.replacingOccurrences(of: " / ", with: " ÷ ")
    var words = text.split(separator: " ").map(String.init)
    while let last = words.last, last.hasSuffix(".") {
      words[words.count - 1] = String(last.dropLast())
      if words[words.count - 1].isEmpty { words.removeLast() }
    }
    let openings = [
      ["can", "you", "tell", "me"], ["could", "you", "tell", "me"], ["tell", "me"], ["please"], ["quick"],
      ["what's"], ["whats"], ["what", "is"], ["what", "are"], ["how", "much", "is"], ["calculate"], ["compute"],
      ["work", "out"], ["convert"], ["hey"], ["ok"],
    ]
    var changed = true
    while changed {
      changed = false
      for opening in openings where words.starts(with: opening) {
        words.removeFirst(opening.count)
        changed = true
      }
      if words.last == "please" {
        words.removeLast()
        changed = true
      }
    }
    return words.isEmpty ? nil : words
  }

  /// A number written in figures or words ("17", "3.5", "three and a half", "a quarter"), and how many words it
  /// took from `start`.
  static func number(_ words: [String], at start: Int) -> (value: Double, count: Int)? {
    guard start < words.count else { return nil }
    let figures = words[start].replacingOccurrences(of: ",", with: "")
    if let value = Double(figures), figures.first?.isNumber == true || figures.first == "-" || figures.first == "." {
      return (value, 1) + half(words, after: start + 1)
    }
    var value = 0.0
    var index = start
    var any = false
    while index < words.count {
      let word = words[index]
      if let small = Self.units[word] {
        value += small
      } else if word == "hundred", any {
        value *= 100
      } else if word == "thousand", any {
        value *= 1000
      } else if word == "and", any, index + 1 < words.count, Self.units[words[index + 1]] != nil {
        // "one hundred and five"
      } else {
        break
      }
      any = true
      index += 1
    }
    if !any, ["a", "an"].contains(words[start]), start + 1 < words.count {
      if words[start + 1] == "half" { return (0.5, 2) }
      if words[start + 1] == "quarter" { return (0.25, 2) }
    }
    guard any else { return nil }
    return (value, index - start) + half(words, after: index)
  }

  /// "and a half", "and a quarter" after a number.
  private static func half(_ words: [String], after index: Int) -> (Double, Int) {
    guard index + 2 < words.count, words[index] == "and", words[index + 1] == "a" else { return (0, 0) }
    if words[index + 2] == "half" { return (0.5, 3) }
    if words[index + 2] == "quarter" { return (0.25, 3) }
    return (0, 0)
  }

  static let units: [String: Double] = [
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
  ]

  /// A number in words, as a reader writes it: whole, or to two places at most.
  static func written(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    guard abs(value) < 1e15 else { return String(format: "%.3g", value) }
    let rounded = (value * 100).rounded() / 100
    var text = String(format: "%.2f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}

private func + (lhs: (value: Double, count: Int), rhs: (Double, Int)) -> (value: Double, count: Int) {
  (lhs.value + rhs.0, lhs.count + rhs.1)
}
