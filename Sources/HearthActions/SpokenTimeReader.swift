import Foundation
import HearthCore

/// Reads a request's words left to right; each phrase it knows is taken whole and its words marked, so
/// that "at 3" and the "3" of "3 reminders" are told apart by what surrounds them.
struct SpokenTimeReader {
  let words: [String]
  let today: LocalDate
  let dayFirst: Bool
  var found = SpokenTime()
  /// Times as said, with "am"/"pm" when given; settled once the whole request is read.
  private var saidClocks: [(hour: Int, minute: Int, meridiem: String?)] = []
  private var betweenDays = false

  init(words: [String], today: LocalDate, dayFirst: Bool) {
    self.words = words
    self.today = today
    self.dayFirst = dayFirst
  }

  /// Small words that belong to the time phrase after them.
  private static let connectors: Set<String> = [
    "on", "at", "by", "for", "from", "until", "till", "between", "in", "around", "about", "the", "of", "this",
    "and", "to", "next",
  ]

  private func word(_ offset: Int, from index: Int) -> String {
    let at = index + offset
    return at >= 0 && at < words.count ? words[at] : ""
  }

  mutating func read() {
    var index = 0
    while index < words.count {
      if let used = day(at: index) ?? clock(at: index) ?? length(at: index) ?? part(at: index) {
        found.timeWords.formUnion(index..<(index + used))
        var before = index - 1
        while before >= 0, Self.connectors.contains(words[before]), !found.timeWords.contains(before) {
          found.timeWords.insert(before)
          before -= 1
        }
        index += used
      } else {
        index += 1
      }
    }
    settle()
  }

  // MARK: Days

  private var mondayThisWeek: LocalDate { today.adding(days: -today.weekday.index) }

  private mutating func named(_ day: LocalDate, part: SpokenTime.PartOfDay? = nil) {
    found.days.append(day)
    if let part { found.part = part }
  }

  private mutating func spans(_ span: SpokenTime.Span) {
    if found.span == nil { found.span = span }
  }

  /// A day, a week, a weekend or a month; the number of words it took.
  private mutating func day(at index: Int) -> Int? {
    let word = words[index]
    let next = self.word(1, from: index)
    let partNext = Self.part(next)
    switch word {
    case "today": named(today, part: partNext)
    case "tonight": named(today, part: .evening)
    case "tomorrow": named(today.adding(days: 1), part: partNext)
    case "yesterday": named(today.adding(days: -1), part: partNext)
    case "day" where next == "after" && self.word(2, from: index) == "tomorrow":
      named(today.adding(days: 2))
      return 3
    case "this", "next", "last", "coming":
      return relative(word, next, index: index)
    case "weekend":
      spans(weekend(weeksAhead: 0))
      return 1
    case "in":
      return later(at: index)
    default:
      return calendarDate(at: index)
    }
    return partNext == nil || word == "tonight" ? 1 : 2
  }

  /// "this week", "next Friday", "last month", "coming weekend", "this afternoon".
  private mutating func relative(_ word: String, _ next: String, index: Int) -> Int? {
    let monday = mondayThisWeek
    switch next {
    case "week":
      switch word {
      case "next": spans(.init(days: monday.adding(days: 7), through: monday.adding(days: 13)))
      case "last": spans(.init(days: monday.adding(days: -7), through: monday.adding(days: -1)))
      default: spans(.init(days: today, through: monday.adding(days: 6)))
      }
    case "weekend":
      spans(weekend(weeksAhead: word == "next" ? 1 : word == "last" ? -1 : 0))
    case "month":
      let first = LocalDate(year: today.year, month: today.month, day: 1)!
      let days = LocalDate.daysIn(month: today.month, year: today.year)
      let nextFirst = first.adding(days: days)
      switch word {
      case "next":
        let length = LocalDate.daysIn(month: nextFirst.month, year: nextFirst.year)
        spans(.init(days: nextFirst, through: nextFirst.adding(days: length - 1)))
      case "last":
        let previous = first.adding(days: -1)
        spans(.init(days: previous.adding(days: 1 - previous.day), through: previous))
      default: spans(.init(days: today, through: nextFirst.adding(days: -1)))
      }
    default:
      if let part = Self.part(next), word == "this" {
        named(today, part: part)
      } else if let weekday = SpokenTime.weekdays[next] {
        let ahead = (weekday.index - today.weekday.index + 7) % 7
        switch word {
        case "next": named(monday.adding(days: 7 + weekday.index))
        case "last": named(today.adding(days: ahead == 0 ? -7 : ahead - 7))
        default: named(today.adding(days: ahead))
        }
      } else {
        return nil
      }
    }
    return 2
  }

  /// Saturday and Sunday of this week (from today when it is Sunday), or of a week before or after.
  private func weekend(weeksAhead: Int) -> SpokenTime.Span {
    let saturday = mondayThisWeek.adding(days: 5 + 7 * weeksAhead)
    let start = weeksAhead == 0 && today > saturday ? today : saturday
    return .init(days: start, through: saturday.adding(days: 1))
  }

  /// "in three days", "in a week", "in 2 weeks".
  private mutating func later(at index: Int) -> Int? {
    let count = self.word(1, from: index)
    guard let amount = Int(count) ?? SpokenTime.numberWords[count], amount > 0, amount < 1000 else { return nil }
    let unit = self.word(2, from: index)
    switch unit {
    case "day", "days": named(today.adding(days: amount))
    case "week", "weeks": named(today.adding(days: 7 * amount))
    default: return nil
    }
    return 3
  }

  /// A weekday, "the 5th", "December 3", "3rd of December", "3/12", "2026-12-03".
  private mutating func calendarDate(at index: Int) -> Int? {
    let word = words[index]
    let previous = self.word(-1, from: index)
    let next = self.word(1, from: index)
    // "sat", "wed", "sun" are words too: shortened, a weekday only after "on" or before a date, a part of the
    // day or a time ("sat 5 dec", "sun morning", "wed 6pm").
    let beforeADate = Int(next) != nil && SpokenTime.months[self.word(2, from: index)] != nil
    if let weekday = SpokenTime.weekdays[word],
      word.count > 4 || ["on", "by", "until", "till"].contains(previous) || beforeADate || Self.part(next) != nil
        || Self.saysClock(next)
    {
      // "Friday the 4th", "Friday 4th of December": one day, named twice.
      let the = next == "the" ? 1 : 0
      let ordinal = self.word(1 + the, from: index)
      // A spelled ordinal only after "the": "Monday first thing" is no 1st of the month.
      if the == 1 || ordinal.first?.isNumber == true, let day = SpokenTime.ordinal(ordinal), (1...31).contains(day) {
        let of = self.word(2 + the, from: index) == "of" ? 1 : 0
        if let month = SpokenTime.months[self.word(2 + the + of, from: index)] {
          guard let date = upcoming(month: month, day: day, year: nil) else { return nil }
          named(date)
          return 3 + the + of
        }
        if let date = upcoming(day: day, on: weekday) {
          named(date)
          return 2 + the
        }
      }
      // "Tuesday 8 December": a plain number is the day only before a month ("Tuesday 8pm" is a time).
      if the == 0, let day = Int(ordinal), (1...31).contains(day) {
        let of = self.word(2, from: index) == "of" ? 1 : 0
        if let month = SpokenTime.months[self.word(2 + of, from: index)] {
          guard let date = upcoming(month: month, day: day, year: nil) else { return nil }
          named(date)
          return 3 + of
        }
      }
      let ahead = (weekday.index - today.weekday.index + 7) % 7
      named(today.adding(days: ahead == 0 ? 7 : ahead))
      if found.days.count > 1, ["to", "until", "through", "and"].contains(previous) { betweenDays = true }
      return 1
    }
    if let date = LocalDate(parsing: word) {
      named(date)
      return 1
    }
    if let month = SpokenTime.months[word], let day = Int(next) ?? SpokenTime.ordinal(next), (1...31).contains(day) {
      let year = Int(self.word(2, from: index)).flatMap { (2000...2100).contains($0) ? $0 : nil }
      guard let date = upcoming(month: month, day: day, year: year) else { return nil }
      named(date)
      return year == nil ? 2 : 3
    }
    if let day = Int(word) ?? SpokenTime.ordinal(word), (1...31).contains(day) {
      let of = next == "of" ? 1 : 0
      if let month = SpokenTime.months[self.word(1 + of, from: index)] {
        let year = Int(self.word(2 + of, from: index)).flatMap { (2000...2100).contains($0) ? $0 : nil }
        guard let date = upcoming(month: month, day: day, year: year) else { return nil }
        named(date)
        return 2 + of + (year == nil ? 0 : 1)
      }
      if SpokenTime.ordinal(word) != nil, previous == "the" || word.first?.isNumber == true, Int(word) == nil {
        var date = LocalDate(year: today.year, month: today.month, day: day)
        if date.map({ $0 < today }) ?? true {
          let nextMonth = LocalDate(year: today.year, month: today.month, day: 1)!.adding(
            days: LocalDate.daysIn(month: today.month, year: today.year))
          date = LocalDate(year: nextMonth.year, month: nextMonth.month, day: day)
        }
        guard let date else { return nil }
        named(date)
        return 1
      }
    }
    let slashed = word.split(separator: "/").compactMap { Int($0) }
    if word.contains("/"), (2...3).contains(slashed.count), slashed.count == word.split(separator: "/").count {
      let (day, month) = dayFirst ? (slashed[0], slashed[1]) : (slashed[1], slashed[0])
      let year = slashed.count == 3 ? (slashed[2] < 100 ? 2000 + slashed[2] : slashed[2]) : nil
      guard let date = upcoming(month: month, day: day, year: year) else { return nil }
      named(date)
      return 1
    }
    return nil
  }

  /// The next day of the month numbered `day` (from today) that falls on `weekday`, within a year and a
  /// half; `nil` when none does (the 31st is never a Friday in the months ahead).
  private func upcoming(day: Int, on weekday: Weekday) -> LocalDate? {
    var first = LocalDate(year: today.year, month: today.month, day: 1)!
    for _ in 0..<18 {
      if let date = LocalDate(year: first.year, month: first.month, day: day), date >= today,
        date.weekday == weekday
      {
        return date
      }
      first = first.adding(days: LocalDate.daysIn(month: first.month, year: first.year))
    }
    return nil
  }

  /// A day in a month: in `year` when said, else the next one from today.
  private func upcoming(month: Int, day: Int, year: Int?) -> LocalDate? {
    if let year { return LocalDate(year: year, month: month, day: day) }
    guard let date = LocalDate(year: today.year, month: month, day: day) else {
      return LocalDate(year: today.year + 1, month: month, day: day)
    }
    return date < today ? LocalDate(year: today.year + 1, month: month, day: day) : date
  }

  // MARK: Parts, times and lengths

  static func part(_ word: String) -> SpokenTime.PartOfDay? {
    switch word {
    case "morning": .morning
    case "afternoon": .afternoon
    case "evening", "night": .evening
    default: nil
    }
  }

  private mutating func part(at index: Int) -> Int? {
    guard let part = Self.part(words[index]) else { return nil }
    found.part = part
    return 1
  }

  /// "noon", "3pm", "3:30 pm", "15:00", "half past 3", "10" after "at", "from", "to" or "until".
  private mutating func clock(at index: Int) -> Int? {
    let word = words[index]
    let next = self.word(1, from: index)
    switch word {
    case "noon", "midday", "lunchtime":
      saidClocks.append((12, 0, "pm"))
      return 1
    case "midnight":
      saidClocks.append((0, 0, "am"))
      return 1
    case "half" where ["past", "after", "to"].contains(next), "quarter" where ["past", "after", "to"].contains(next):
      guard let hour = Int(self.word(2, from: index)) ?? SpokenTime.numberWords[self.word(2, from: index)],
        (1...12).contains(hour)
      else { return nil }
      let minutes = word == "half" ? 30 : 15
      if next == "to" {
        saidClocks.append((hour == 1 ? 12 : hour - 1, 60 - minutes, nil))
      } else {
        saidClocks.append((hour, minutes, nil))
      }
      return 3
    default:
      break
    }
    // "5.30pm", "at 7.15": a full stop between the hour and two figures of minutes, as many write it.
    // Not a price: "pay Sam 12.50" says no time; "at 7.15", "to 1.15", "5.30pm" do.
    let dotted = word.range(of: #"^\d{1,2}\.\d{2}(am|pm)?$"#, options: .regularExpression) != nil
    let timed =
      word.hasSuffix("am") || word.hasSuffix("pm")
      || ["am", "pm"].contains(self.word(1, from: index))
      || ["at", "from", "until", "till", "around", "by", "to", "-"].contains(self.word(-1, from: index))
    if dotted, !timed { return nil }
    var text = dotted ? word.replacingOccurrences(of: ".", with: ":") : word
    var meridiem: String?
    var used = 1
    for suffix in ["am", "pm"] where text.hasSuffix(suffix) && text.count > 2 {
      meridiem = suffix
      text.removeLast(2)
    }
    if meridiem == nil, ["am", "pm", "a.m", "p.m"].contains(next) {
      meridiem = String(next.prefix(1)) + "m"
      used = 2
    } else if meridiem == nil, ["o'clock", "oclock"].contains(next) {
      used = 2
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let previous = self.word(-1, from: index)
    let spelled =
      ["at", "from", "until", "till", "around", "by"].contains(previous) && word.count > 2
      ? SpokenTime.numberWords[word] : nil
    guard (1...2).contains(parts.count), let hour = Int(parts[0]) ?? spelled, (0...23).contains(hour) else {
      return nil
    }
    let minute = parts.count == 2 ? Int(parts[1]) : 0
    guard let minute, (0...59).contains(minute), parts.count == 1 || parts[1].count == 2 else { return nil }
    let saysTime =
      parts.count == 2 || meridiem != nil || used == 2
      || ["at", "from", "until", "till", "around", "by", "between"].contains(previous)
      || (["to", "and", "-"].contains(previous) && !saidClocks.isEmpty)
      || (next == "in" && Self.part(self.word(3, from: index)) != nil) || next == "tonight"
      || (next == "to" && Self.saysClock(self.word(2, from: index)))
    guard saysTime, !Self.isUnit(next) else { return nil }
    if meridiem != nil, hour > 12 { return nil }
    saidClocks.append((hour, minute, meridiem))
    return used
  }

  /// "4pm", "4:30": a word that is a time of day by itself.
  static func saysClock(_ word: String) -> Bool {
    (word.hasSuffix("am") || word.hasSuffix("pm") || word.contains(":")) && word.first?.isNumber == true
  }

  static func isUnit(_ word: String) -> Bool {
    ["hour", "hours", "hr", "hrs", "h", "minute", "minutes", "min", "mins", "day", "days", "week", "weeks"]
      .contains(word)
  }

  /// "for an hour", "half an hour", "an hour and a half", "two hours", "90 minutes", "30 free minutes".
  private mutating func length(at index: Int) -> Int? {
    let word = words[index]
    let next = self.word(1, from: index)
    if word == "half", next == "hour" || (next == "an" && self.word(2, from: index) == "hour") {
      found.minutes = 30
      return next == "hour" ? 2 : 3
    }
    if word == "quarter", next == "of", self.word(3, from: index) == "hour" {
      found.minutes = 15
      return 4
    }
    var amount = Double(word) ?? SpokenTime.numberWords[word].map(Double.init)
    var at = index + 1
    if word == "couple" || word == "few", next == "of" { at += 1 }
    if self.word(at - index, from: index) == "free" { at += 1 }
    guard let count = amount, count > 0, count <= 24 * 60, self.word(-1, from: index) != "in" else { return nil }
    let unit = self.word(at - index, from: index)
    var used = at - index + 1
    switch unit {
    case "hour", "hours", "hr", "hrs", "h":
      amount = count * 60
      if self.word(used, from: index) == "and", self.word(used + 1, from: index) == "a",
        self.word(used + 2, from: index) == "half"
      {
        amount = count * 60 + 30
        used += 3
      }
    case "minute", "minutes", "min", "mins": amount = count
    default: return nil
    }
    found.minutes = Int(amount ?? 0)
    return used
  }

  // MARK: Settling

  /// Settles am and pm from what the whole request says, and the span the words name.
  private mutating func settle() {
    let evening = ["dinner", "drinks", "supper", "party", "concert", "movie", "theatre", "theater"]
      .contains(where: words.contains)
    found.clocks = saidClocks.map { said in
      var hour = said.hour
      switch said.meridiem {
      case "pm": if hour < 12 { hour += 12 }
      case "am": if hour == 12 { hour = 0 }
      default:
        if hour >= 1, hour <= 11 {
          switch found.part {
          case .afternoon?, .evening?: hour += 12
          case .morning?: break
          case nil: if hour <= 6 || (evening && hour >= 5) { hour += 12 }
          }
        }
      }
      return SpokenTime.Clock(hour: hour, minute: said.minute)
    }
    // "The week of the 7th of December": the whole week that day falls in, Monday to Sunday.
    let weekOf = zip(words, words.dropFirst()).contains { $0 == "week" && $1 == "of" }
    if found.span == nil, weekOf, found.days.count == 1, let day = found.days.first {
      let monday = day.adding(days: -day.weekday.index)
      found.span = .init(days: monday, through: monday.adding(days: 6))
    }
    if found.span == nil {
      if let first = found.days.first {
        if betweenDays || (found.days.count > 1 && words.contains("between")), let last = found.days.last,
          last > first
        {
          found.span = .init(days: first, through: last)
        } else {
          found.span = span(on: first)
        }
      } else if found.part != nil || found.clocks.count >= 2 {
        found.span = span(on: today)
      }
    }
  }

  /// The span on one day: between two times said, else the part of the day said, else all of it.
  private func span(on day: LocalDate) -> SpokenTime.Span {
    if found.clocks.count >= 2,
      let start = LocalDateTime(date: day, hour: found.clocks[0].hour, minute: found.clocks[0].minute),
      let end = LocalDateTime(date: day, hour: found.clocks[1].hour, minute: found.clocks[1].minute), end > start
    {
      return .init(start, end)
    }
    if let part = found.part {
      let start = LocalDateTime(startOf: day).adding(seconds: part.hours.start * 3600)
      return .init(start, LocalDateTime(startOf: day).adding(seconds: part.hours.end * 3600))
    }
    return .init(days: day, through: day)
  }
}
