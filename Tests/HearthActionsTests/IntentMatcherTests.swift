import HearthActions
import HearthCore
import Testing

/// The matcher's decisions on vectors made by hand: which intent is clear, which two are a question to ask, and
/// when none is near enough.
@Suite("Reading a request's intent from its nearest examples")
struct IntentMatcherTests {
  static let create = RequestIntent(.calendar, "create")
  static let move = RequestIntent(.calendar, "update")
  static let events = RequestIntent(.calendar, "query")
  static let reminders = RequestIntent(.reminder, "list")

  /// Examples along three axes: creating, moving and looking (and listing reminders near looking).
  static let matcher = IntentMatcher(
    examples: [
      (create, [1, 0, 0]), (create, [0.9, 0.1, 0]),
      (move, [0, 1, 0]), (move, [0.1, 0.9, 0]),
      (events, [0, 0, 1]), (events, [0, 0.1, 0.9]),
      (reminders, [0, 0.05, 0.95]), (reminders, [0.05, 0, 1]),
      (.plain, [-1, 0, 0]), (.plain, [-0.9, -0.1, 0]),
    ], floor: 0.5, margin: 0.05)

  @Test("a request near one intent's examples reads as that intent, whatever its length")
  func aNearIntentIsClear() {
    guard case .clear(let intent, let score) = Self.matcher.read([2, 0.1, 0]) else {
      Issue.record("not clear")
      return
    }
    #expect(intent == Self.create)
    #expect(score > 0.9)
  }

  @Test("two changes equally near are a question to ask, not a guess")
  func twoChangesAreAQuestion() {
    #expect(Self.matcher.read([1, 1, 0]) == .close(Self.create, Self.move))
  }

  @Test("two looks at the data equally near need no question: the nearer one is shown")
  func twoLooksNeedNoQuestion() {
    guard case .clear(let intent, _) = Self.matcher.read([0, 0.03, 1]) else {
      Issue.record("not clear")
      return
    }
    #expect([Self.events, Self.reminders].contains(intent))
  }

  @Test("a change nearly as close to a plain question is no change, and nothing near enough is unclear")
  func nearlyPlainAndFarAreUnclear() {
    let mixed = IntentMatcher(
      examples: [(Self.create, [1, 0.2, 0]), (.plain, [1, -0.2, 0])], floor: 0.5, margin: 0.05)
    #expect(mixed.read([1, 0.01, 0]) == .unclear)
    #expect(Self.matcher.read([0, 0, -1]) == .unclear)
    // Vectors of another length (another model's) are never compared.
    #expect(Self.matcher.read([1, 0]) == .unclear)
  }

  @Test("every intent has examples, each a request of its own, and every action is one the specs know")
  func theExamplesAreSound() {
    let all = IntentExamples.all.flatMap(\.examples)
    #expect(Set(all).count == all.count)
    for (intent, examples) in IntentExamples.all {
      #expect(examples.count >= 4, "\(intent)")
      if let kind = intent.kind, let action = intent.action {
        #expect(ActionSpec.specs(of: kind).contains { $0.action == action }, "\(intent)")
      }
    }
  }
}
