import Foundation
public import HearthCore

/// The times a request names as people say them — "tomorrow afternoon", "this weekend", "next Friday at
/// noon", "the 5th", "December 3", "3/12", "in three days", "from 3 to 4:30", "for half an hour" — read by
/// code into exact days, a span and times, so that no model has to work out a date.
public struct SpokenTime: Sendable, Hashable {
  /// A stretch of local time, `start` included and `end` not.
  public struct Span: Sendable, Hashable {
    public var start: LocalDateTime
    public var end: LocalDateTime

    public init(_ start: LocalDateTime, _ end: LocalDateTime) {
      self.start = start
      self.end = end
    }

    /// Whole days from `first` to `last`, both included.
    public init(days first: LocalDate, through last: LocalDate) {
      self.init(LocalDateTime(startOf: first), LocalDateTime(startOf: last.adding(days: 1)))
    }

    /// Whether the span is whole days (midnight to midnight).
    public var isWholeDays: Bool {
      start.hour == 0 && start.minute == 0 && end.hour == 0 && end.minute == 0
    }
  }

  /// A part of the day ("tomorrow morning", "tonight"): its hours and the time an item said to happen then
  /// starts at.
  public enum PartOfDay: String, Sendable, Hashable {
    case morning, afternoon, evening

    var hours: (start: Int, end: Int) {
      switch self {
      case .morning: (6, 12)
      case .afternoon: (12, 18)
      case .evening: (18, 24)
      }
    }

    /// The start of an item said to happen then with no time.
    public var usualStart: Int {
      switch self {
      case .morning: 9
      case .afternoon: 14
      case .evening: 19
      }
    }
  }

  /// A time of day as said.
  public struct Clock: Sendable, Hashable {
    public var hour: Int
    public var minute: Int
  }

  /// Days named, in order.
  public var days: [LocalDate] = []
  /// The stretch the words name: a day, a part of one, between two times, a week, a weekend, a month.
  public var span: Span?
  /// Times of day named, in order.
  public var clocks: [Clock] = []
  /// A length named ("for an hour", "half an hour", "two hours", "90 minutes"), in minutes.
  public var minutes: Int?
  /// A part of the day named.
  public var part: PartOfDay?
  /// The indices of the words that say all this, so the rest of the request can be read for a title.
  public var timeWords: Set<Int> = []

  /// Whether a day (or a week, a month) was named, not only a time.
  public var namesDay: Bool { !days.isEmpty || span != nil }

  /// The first and last dates the words name: the stretch named (its last whole day), else the days named;
  /// `nil` when none is. The last is never before the first.
  public var namedDates: (from: LocalDate, to: LocalDate)? {
    let named =
      span.map { ($0.start.date, $0.isWholeDays ? $0.end.date.adding(days: -1) : $0.end.date) }
      ?? days.min().flatMap { first in days.max().map { (first, $0) } }
    return named.map { ($0.0, max($0.0, $0.1)) }
  }

  /// The date-times named: each time on the first day named (today when none); a part of a day named
  /// without a time stands for its usual start ("tomorrow morning": 09:00).
  public func dateTimes(today: LocalDate) -> [LocalDateTime] {
    let day = days.first ?? span?.start.date ?? today
    if clocks.isEmpty, let part { return [LocalDateTime(startOf: day).adding(seconds: part.usualStart * 3600)] }
    return clocks.compactMap { LocalDateTime(date: day, hour: $0.hour, minute: $0.minute) }
  }

  init() {}

  /// Reads `words` (lower-cased, as ``words(of:)`` splits them) as said on `today`. `dayFirst` reads
  /// `3/12` as the 3rd of December (most of the world), else as March 12 (the United States).
  public init(words: [String], today: LocalDate, dayFirst: Bool = true) {
    var reader = SpokenTimeReader(words: words.map { $0.lowercased() }, today: today, dayFirst: dayFirst)
    reader.read()
    self = reader.found
  }

  /// `text` split into words as ``init(words:today:dayFirst:)`` reads them, in their own case: "3-4pm"
  /// becomes "3 to 4pm", "two-hour" becomes "two hour", "Marco's" becomes "Marco", punctuation goes.
  public static func words(of text: String) -> [String] {
    let plain = text.replacingOccurrences(of: "’", with: "'")
    var words: [String] = []
    for piece in plain.split(whereSeparator: { !$0.isLetter && !$0.isNumber && !":-/'.".contains($0) }) {
      var word = String(piece)
      while let last = word.last, ".:'-/".contains(last) { word.removeLast() }
      while let first = word.first, ".:'-/".contains(first) { word.removeFirst() }
      guard !word.isEmpty else { continue }
      if word.contains("-"), LocalDate(parsing: word) == nil {
        let parts = word.split(separator: "-").map(String.init)
        let numeric = parts.count == 2 && parts[0].first?.isNumber == true && parts[1].first?.isNumber == true
        words += numeric ? [parts[0], "to", parts[1]] : parts
      } else if word.lowercased().hasSuffix("'s") {
        words.append(String(word.dropLast(2)))
      } else {
        words.append(word)
      }
    }
    return words
  }

  /// Number words people use for small counts.
  static let numberWords: [String: Int] = [
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "ninety": 90, "couple": 2, "few": 3,
  ]

  /// Ordinal words and suffixed numbers: "5th", "fifth", "21st".
  static func ordinal(_ word: String) -> Int? {
    let words = [
      "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
      "twelfth",
    ]
    if let index = words.firstIndex(of: word) { return index + 1 }
    for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) {
      if let day = Int(word.dropLast(2)), (1...31).contains(day) { return day }
    }
    return nil
  }

  static let months: [String: Int] = [
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
  ]

  /// Weekday names in full and shortened.
  static let weekdays: [String: Weekday] = RequestHints.weekdayNames.merging([
    "mon": .monday, "tue": .tuesday, "tues": .tuesday, "wed": .wednesday,
    "weds": .wednesday, "thu": .thursday, "thur": .thursday, "thurs": .thursday, "fri": .friday, "sat": .saturday,
    "sun": .sunday,
  ]) { full, _ in full }
}
