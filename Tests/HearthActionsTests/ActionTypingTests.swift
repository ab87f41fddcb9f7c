import HearthCore
import Testing

@testable import HearthActions

@Suite("Typed actions and the specs held to each other")
struct ActionTypingTests {
  private static let today = LocalDate(year: 2026, month: 12, day: 2)!

  private func validated(_ spec: ActionSpec) throws -> ValidatedAction {
    let text = ActionInstructions.fill(spec.example.payload, today: Self.today)
    let block = try #require(ActionBlockParser.parse("[\(spec.kind.rawValue):\(text)]").blocks.first)
    return try block.validated()
  }

  @Test("every spec's own example validates to the typed case that names that spec, and no two specs share a case")
  func everySpecHasItsCase() throws {
    var cases: Set<String> = []
    for spec in ActionSpec.all {
      let action = try validated(spec)
      #expect(action.typed.spec == spec, "\(spec.kind.rawValue) \(spec.action ?? "")")
      #expect(action.typed.spec.effect == spec.effect)
      cases.insert(String(describing: action.typed).prefix { $0 != "(" }.description)
    }
    #expect(cases.count == ActionSpec.all.count, "\(cases.sorted())")
  }

  @Test("the typed value carries each field as checked: a date alone stays a day, a date-time a moment")
  func fieldsArriveTyped() throws {
    let block = try #require(
      ActionBlockParser.parse(
        #"[REMINDER_ACTION:{"action":"create","title":"Pay rent","due":"2026-12-05","priority":"high","list":"Home"}]"#
      ).blocks.first)
    #expect(
      try block.validated().typed
        == .createReminder(
          title: "Pay rent", due: .day(LocalDate(year: 2026, month: 12, day: 5)!), priority: "high", list: "Home"))
    let update = try #require(
      ActionBlockParser.parse(
        #"[CALENDAR_ACTION:{"action":"update","id":"ab12","start":"2026-12-03T09:00","newStart":"2026-12-03T14:00"}]"#
      ).blocks.first)
    guard case .updateEvent(let target, let occurrence, nil, let newStart?, nil, nil) = try update.validated().typed
    else {
      Issue.record("not an update of an event: \(try update.validated().typed)")
      return
    }
    #expect(target == ItemReference(id: "ab12"))
    #expect(occurrence == LocalDateTime(parsing: "2026-12-03T09:00"))
    #expect(newStart == LocalDateTime(parsing: "2026-12-03T14:00"))
  }

  @Test("a block made from its parts reads back as the same block")
  func aBlockFromPartsReadsBack() throws {
    let payload = JSONValue.object([("query", .string("Anna's [work] \"phone\""))])
    let made = ActionBlock(kind: .contactsSearch, payload: payload)
    let read = try #require(ActionBlockParser.parse(made.raw).blocks.first)
    #expect(read.payload == payload)
    #expect(try read.validated().typed == .searchContacts(query: "Anna's [work] \"phone\""))
  }
}
