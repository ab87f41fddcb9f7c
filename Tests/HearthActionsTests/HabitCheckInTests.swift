import HearthCore
import Testing

@testable import HearthActions

@Suite("A habit said done is its check-in")
struct HabitCheckInTests {
  private let habits = ["Run", "Read", "Meditate"]

  @Test(arguments: [
    ("did 5km this morning, a slow run", "Run"), ("went jogging earlier", "Run"), ("log my run", "Run"),
    ("ran the canal loop today", "Run"), ("got through 30 pages on the train", "Read"),
    ("meditated for ten minutes", "Meditate"), ("just finished my meditation", "Meditate"),
  ])
  func aStatementOfAHabitDoneLogsIt(request: String, habit: String) throws {
    let block = try #require(HabitCheckIn.block(request, habits: habits))
    let parsed = try #require(ActionBlockParser.parse(block).blocks.first)
    #expect(parsed.kind == .habit)
    #expect(parsed.payload["action"]?.stringValue == "log")
    #expect(parsed.payload["name"]?.stringValue == habit)
  }

  @Test(arguments: [
    "remind me to run the dishwasher", "add running shoes to my shopping list", "new habit: running on mondays",
    "I ran into Anna today", "the meeting ran late", "didn't run today, too tired", "skipped my reading",
    "how is my running streak?", "did I run yesterday?", "going to run tomorrow", "ran and read today",
    "cancel my run", "I read the contract? no", "what's on today",
  ])
  func anythingElseIsNoCheckIn(request: String) {
    #expect(HabitCheckIn.block(request, habits: habits) == nil)
  }

  @Test func theFormsOfAHabitsNameFollowEnglish() {
    let run = HabitCheckIn.forms(of: "Run")
    #expect(["run", "runs", "running", "ran", "jogged"].allSatisfy(run.contains))
    let stretch = HabitCheckIn.forms(of: "Stretching")
    #expect(["stretch", "stretched", "stretching", "stretches"].filter(stretch.contains).count >= 3)
  }
}
