import HearthActions
import HearthCore
import Testing

@Suite struct SpokenTimeTests {
  /// A Thursday.
  let thursday = LocalDate(year: 2026, month: 11, day: 26)!

  func read(_ text: String, dayFirst: Bool = true) -> SpokenTime {
    SpokenTime(words: SpokenTime.words(of: text), today: thursday, dayFirst: dayFirst)
  }

  func span(_ text: String, dayFirst: Bool = true) -> String? {
    read(text, dayFirst: dayFirst).span.map { "\($0.start.shortDescription)…\($0.end.shortDescription)" }
  }

  func times(_ text: String) -> [String] { read(text).dateTimes(today: thursday).map(\.shortDescription) }

  @Test(arguments: [
    ("What do I have today?", "2026-11-26T00:00…2026-11-27T00:00"),
    ("Am I busy tonight?", "2026-11-26T18:00…2026-11-27T00:00"),
    ("Anything tomorrow morning?", "2026-11-27T06:00…2026-11-27T12:00"),
    ("tomorrow afternoon", "2026-11-27T12:00…2026-11-27T18:00"),
    ("tomorrow evening", "2026-11-27T18:00…2026-11-28T00:00"),
    ("What is on my calendar this week?", "2026-11-26T00:00…2026-11-30T00:00"),
    ("next week", "2026-11-30T00:00…2026-12-07T00:00"),
    ("this weekend", "2026-11-28T00:00…2026-11-30T00:00"),
    ("Do I have anything on Saturday?", "2026-11-28T00:00…2026-11-29T00:00"),
    ("next Friday", "2026-12-04T00:00…2026-12-05T00:00"),
    ("on Friday", "2026-11-27T00:00…2026-11-28T00:00"),
    ("in three days", "2026-11-29T00:00…2026-11-30T00:00"),
    ("on the 5th", "2026-12-05T00:00…2026-12-06T00:00"),
    ("on the 30th", "2026-11-30T00:00…2026-12-01T00:00"),
    ("December 3", "2026-12-03T00:00…2026-12-04T00:00"),
    ("3rd of December", "2026-12-03T00:00…2026-12-04T00:00"),
    ("on 3/12", "2026-12-03T00:00…2026-12-04T00:00"),
    ("next month", "2026-12-01T00:00…2027-01-01T00:00"),
    ("this month", "2026-11-26T00:00…2026-12-01T00:00"),
    ("am I free tomorrow from 3 to 4:30", "2026-11-27T15:00…2026-11-27T16:30"),
    ("January 10", "2027-01-10T00:00…2027-01-11T00:00"),
    ("what have I got in the week of the 7th of December", "2026-12-07T00:00…2026-12-14T00:00"),
    ("on Tuesday 8 December", "2026-12-08T00:00…2026-12-09T00:00"),
    ("the day after tomorrow", "2026-11-28T00:00…2026-11-29T00:00"),
  ])
  func spansAreReadAsPeopleMeanThem(text: String, expected: String) {
    #expect(span(text) == expected)
  }

  @Test func aSlashedDateFollowsTheLocale() {
    #expect(span("on 3/12", dayFirst: false) == "2027-03-12T00:00…2027-03-13T00:00")
    #expect(span("on 12/3/2026") == "2026-03-12T00:00…2026-03-13T00:00")
  }

  @Test func timesOfDay() {
    #expect(times("Lunch on Friday at noon") == ["2026-11-27T12:00"])
    #expect(times("Call with Marco on Saturday at 4pm") == ["2026-11-28T16:00"])
    #expect(times("tomorrow at 3") == ["2026-11-27T15:00"])
    #expect(times("job interview on Tuesday 8 December at 11:15") == ["2026-12-08T11:15"])
    #expect(times("tomorrow at 9") == ["2026-11-27T09:00"])
    #expect(times("dinner on Friday at 7") == ["2026-11-27T19:00"])
    #expect(times("at 8 tonight") == ["2026-11-26T20:00"])
    #expect(times("on Saturday at 8 in the morning") == ["2026-11-28T08:00"])
    #expect(times("tomorrow from 3 to 4:30") == ["2026-11-27T15:00", "2026-11-27T16:30"])
    #expect(times("Friday 3-4pm") == ["2026-11-27T15:00", "2026-11-27T16:00"])
    #expect(times("tomorrow at half past ten") == ["2026-11-27T10:30"])
    #expect(times("on Monday at 10:15 am") == ["2026-11-30T10:15"])
    #expect(times("tomorrow morning") == ["2026-11-27T09:00"])
    // A time alone is today; a bare number is not a time.
    #expect(times("at 16:00") == ["2026-11-26T16:00"])
    #expect(times("call 3 people tomorrow").isEmpty)
    #expect(read("call 3 people tomorrow").days == [thursday.adding(days: 1)])
  }

  @Test func lengths() {
    #expect(read("for two hours").minutes == 120)
    #expect(read("half an hour").minutes == 30)
    #expect(read("an hour and a half").minutes == 90)
    #expect(read("for 90 minutes").minutes == 90)
    #expect(read("a two-hour review").minutes == 120)
    #expect(read("30 free minutes").minutes == 30)
    #expect(read("in two hours").minutes == nil)
  }

  @Test func theWordsThatSayTheTimeAreMarked() {
    let words = SpokenTime.words(of: "Schedule a call with Marco on Saturday at 4pm")
    let time = SpokenTime(words: words, today: thursday)
    let rest = words.indices.filter { !time.timeWords.contains($0) }.map { words[$0] }
    #expect(rest == ["Schedule", "a", "call", "with", "Marco"])
  }

  @Test(arguments: [
    ("Schedule a call with Marco on Saturday at 4pm", "Call with Marco"),
    ("Add a dentist appointment on Friday at 3pm", "Dentist appointment"),
    ("Create an event called Piano lesson on Thursday at 17:00", "Piano lesson"),
    ("I have a haircut on Tuesday at 14:00, add it", "Haircut"),
    ("Remind me to call mum tomorrow", "Call mum"),
    ("Remind me tomorrow at 9 to call the bank", "Call the bank"),
    ("Put lunch with Priya on my calendar for Friday at 12:30", "Lunch with Priya"),
  ])
  func titlesAreTheRequestsOwnNouns(request: String, title: String) {
    #expect(RequestHints(request, today: thursday).title == title)
  }

  @Test func questionsAboutTheScheduleAreCalendarQueries() {
    for question in ["Do I have anything on Saturday?", "What's on tomorrow?", "Am I busy this weekend?"] {
      let hints = RequestHints(question, today: thursday)
      #expect(hints.kind == .calendar, "\(question)")
      #expect(hints.action == "query", "\(question)")
    }
  }
}
