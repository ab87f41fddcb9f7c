import Foundation
import HearthBench
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

/// The requests a report of the assistant's misreadings named, each through a whole turn with the default
/// model on the seeded profile of the evaluation, on the report's day (a Thursday).
@Suite("Everyday requests through a whole turn (SmolLM2, real)", .serialized, .heavy)
struct EverydayRequestTests {
  private static let model = Task {
    try await LocalModel.load(
      LocalModelOptions(path: TestModels.smolLM2, contextSize: 2048, threads: TestModels.threads))
  }

  static let reported = AssistantCase.tuned.filter(\.isReported).map(\.request)

  /// `testCase` asked through a whole turn on a fresh seeded profile.
  static func ask(_ testCase: AssistantCase) async throws -> AssistantEvaluation.Outcome {
    let evaluation = AssistantEvaluation(model: try await model.value)
    return try await evaluation.ask(testCase, home: try TestModels.temporaryDirectory())
  }

  @Test(arguments: reported)
  func aReportedRequestIsAnsweredFromTheDataWithTheRightFields(request: String) async throws {
    let testCase = try #require(AssistantCase.tuned.first { $0.request == request })
    let outcome = try await Self.ask(testCase)
    #expect(outcome.rightAction, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.rightFields, "\(outcome.blocks)")
    #expect(outcome.rightFacts, "\(outcome.answer)")
  }

  @Test("a schedule question the model would have answered from nothing is looked up")
  func aQuestionAboutADayIsLookedUp() async throws {
    let testCase = try #require(AssistantCase.tuned.first { $0.request == "Do I have anything on Saturday?" })
    let outcome = try await Self.ask(testCase)
    #expect(outcome.blocks == [#"[CALENDAR_ACTION:{"action":"query","from":"2026-11-28","to":"2026-11-28"}]"#])
    #expect(outcome.answer.contains("Sat 2026-11-28 19:30–21:30: Dinner with Marco"), "\(outcome.answer)")
  }

  /// Questions that name one of the user's things, in words the readers of changes took for a change (a reminder
  /// made of the question, a note titled "Wifi password") or left to the model (which invented an answer).
  static let namedThings: [AssistantCase] = [
    AssistantCase(
      "when do I have to renew my passport by", .lookups, .answer(.reminder, "list", facts: ["2026-12-05"])),
    AssistantCase("how urgent is the electricity bill reminder", .lookups, .answer(.reminder, "list", facts: ["high"])),
    AssistantCase("whats the wifi password", .lookups, .answer(.note, "search", facts: ["tulip42"])),
    AssistantCase("remind me where i met anna", .lookups, .answer(.contactsSearch, nil, facts: ["Lyon"])),
    AssistantCase("which room is mondays team meeting in", .schedule, .answer(.calendar, "query", facts: ["Room 4"])),
    AssistantCase(
      "remind me what the team meeting on monday is about", .schedule, .answer(.calendar, "query", facts: ["Sam"])),
    AssistantCase(
      "how long is the hair cut, when does it finish?", .schedule, .answer(.calendar, "query", facts: ["15:45"])),
  ]

  /// Requests in shapes the readers were widened for — a place after "at", where the item goes, how urgent it
  /// is, a quoted note title, a weekday with its day of the month, a place changed, a new time stated, a text
  /// after a colon, a check-in ticked off, a line of a diary — in words of their own (not the benchmark's).
  static let shapes: [AssistantCase] = [
    AssistantCase(
      "book squash with ben at the leisure centre on saturday 10am", .creations,
      .action(.calendar, "create", fields: ["title": "~squash", "start": "2026-11-28T10:00", "location": "~leisure"])),
    AssistantCase(
      "stick the school concert into my calendar, 9th december 6pm", .creations,
      .action(.calendar, "create", fields: ["title": "~concert", "start": "2026-12-09T18:00"])),
    AssistantCase(
      "urgent reminder to renew the car insurance by friday", .creations,
      .action(.reminder, "create", fields: ["title": "~insurance", "due": "2026-11-27", "priority": "high"])),
    AssistantCase(
      "new note \"Gift ideas\" - a scarf for mum", .creations,
      .action(.note, "create", fields: ["title": "~gift", "body": "~scarf"])),
    AssistantCase(
      "shift the dentist to tuesday the 8th at 9am", .changes,
      .action(.calendar, "update", fields: ["title": "~dentist", "newStart": "2026-12-08T09:00"])),
    AssistantCase(
      "change the venue of the dentist to Harbour Clinic", .changes,
      .action(.calendar, "update", fields: ["title": "~dentist", "location": "~harbour"])),
    AssistantCase(
      "yoga class on saturday is now at 11am", .changes,
      .action(.calendar, "update", fields: ["title": "~yoga", "newStart": "2026-11-28T11:00"])),
    AssistantCase(
      "append to my lisbon trip note: taxi booked for 10:15", .changes,
      .action(.note, "append", fields: ["title": "~lisbon", "text": "~10:15"])),
    AssistantCase("tick off read for today", .checkIns, .action(.habit, "log", fields: ["name": "~read"])),
    AssistantCase(
      "piano lesson next wednesday at 4pm", .creations,
      .action(.calendar, "create", fields: ["title": "~piano", "start": "2026-12-02T16:00"])),
  ]

  @Test(arguments: shapes.map(\.request))
  func aRequestInAShapeTheReadersKnowIsDraftedWithItsFields(request: String) async throws {
    let testCase = try #require(Self.shapes.first { $0.request == request })
    let outcome = try await Self.ask(testCase)
    #expect(outcome.rightAction, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.rightFields, "\(outcome.blocks)")
  }

  /// The shapes widened against the third development set, in words of their own: a sum, shorthand, a list
  /// named, a question about what is due or urgent, a discard, a new place stated, the week of a date.
  static let widened: [AssistantCase] = [
    AssistantCase("whats 23 x 19", .plain, .nothing(saying: ["437"])),
    AssistantCase(
      "anything on tmrw?", .schedule, .answer(.calendar, "query", facts: ["Lunch with Priya"], absent: ["Yoga"])),
    AssistantCase(
      "show me the Home list", .lookups,
      .answer(.reminder, "list", facts: ["Call the plumber", "electricity"], absent: ["Buy milk"])),
    AssistantCase(
      "anything urgent on my to-dos?", .lookups,
      .answer(.reminder, "list", facts: ["electricity"], absent: ["Buy milk", "plumber"])),
    AssistantCase("bin the shopping note", .changes, .action(.note, "delete", fields: ["title": "~shopping"])),
    AssistantCase(
      "yoga on saturday is at the community hall now", .changes,
      .action(.calendar, "update", fields: ["title": "~yoga", "location": "~community"])),
    AssistantCase(
      "what's on in the week of the 30th", .schedule,
      .answer(.calendar, "query", facts: ["Team meeting"], absent: ["Lunch with Priya"])),
    AssistantCase(
      "coffee with anna 3ish tmrw", .creations,
      .action(.calendar, "create", fields: ["title": "~coffee", "start": "2026-11-27T15:00"])),
    AssistantCase(
      "the dentist is now fri 4 dec at 10am", .changes,
      .action(.calendar, "update", fields: ["title": "~dentist", "newStart": "2026-12-04T10:00"])),
    AssistantCase(
      "remind me to call the vet, put it on my Home list", .creations,
      .action(.reminder, "create", fields: ["title": "~vet", "list": "Home"])),
    AssistantCase(
      "lunch with priya should end at 2.15pm", .changes,
      .action(.calendar, "update", fields: ["title": "~priya", "newEnd": "2026-11-27T14:15"])),
    // Widened against the fifth development set: a habit said done by a form of its name, the user's own day
    // named with "my", the calendar with a time, "remind me what …" told at once.
    AssistantCase("jogged round the park after work", .checkIns, .action(.habit, "log", fields: ["name": "~run"])),
    AssistantCase("finished two chapters before bed", .checkIns, .action(.habit, "log", fields: ["name": "~read"])),
    AssistantCase(
      "what's my last thing on saturday", .schedule,
      .answer(.calendar, "query", facts: ["Dinner with Marco"], absent: ["Team meeting"])),
    AssistantCase(
      "hows tuesday looking diary wise", .schedule, .answer(.calendar, "query", facts: ["Dentist"], absent: ["Yoga"])),
    AssistantCase(
      "remind me what's happening on monday", .schedule,
      .answer(.calendar, "query", facts: ["Team meeting"], absent: ["Buy milk"])),
    AssistantCase(
      "got anything planned with priya?", .schedule,
      .answer(.calendar, "query", facts: ["Lunch with Priya"], absent: ["Team meeting"])),
    AssistantCase(
      "don't let me forget to water the plants on sunday", .creations,
      .action(.reminder, "create", fields: ["title": "~water the plants", "due": "2026-11-29"])),
  ]

  @Test(arguments: widened.map(\.request))
  func aRequestOfTheWidenedShapesIsReadRightThroughAWholeTurn(request: String) async throws {
    let testCase = try #require(Self.widened.first { $0.request == request })
    let outcome = try await Self.ask(testCase)
    #expect(outcome.rightAction, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.rightFields, "\(outcome.blocks)")
    #expect(outcome.rightFacts, "\(outcome.answer)")
    #expect(outcome.invented.isEmpty, "\(outcome.invented)")
  }

  @Test(arguments: namedThings.map(\.request))
  func aQuestionThatNamesOneOfTheUsersThingsShowsItsRecordAndChangesNothing(request: String) async throws {
    let testCase = try #require(Self.namedThings.first { $0.request == request })
    let outcome = try await Self.ask(testCase)
    #expect(outcome.rightAction, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.rightFacts, "\(outcome.answer)")
    #expect(outcome.invented.isEmpty, "\(outcome.invented)")
  }
}
