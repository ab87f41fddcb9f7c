import HearthCore
import Testing

@testable import HearthActions

@Suite("A habit said done is its check-in")
struct HabitCheckInTests {
  private let habits = ["Run", "Read", "Meditate"]

  @Test(arguments: [
    ("did 5km this morning, a slow run", "Run"), ("went jogging earlier", "Run"), ("log my run", "Run"),
    ("ran the canal loop today", "Run"), ("read 30 pages on the train", "Read"), ("I went for a run today", "Run"),
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
    "The meeting ran long today, can you draft an apology?", "Drove 300 miles today", "Just paid 5k for the roof",
    "My sister ran the London marathon this year", "went to the library to read",
  ])
  func anythingElseIsNoCheckIn(request: String) {
    #expect(HabitCheckIn.block(request, habits: habits) == nil)
  }

  @Test func theFormsOfAHabitsNameFollowEnglish() {
    let run = HabitCheckIn.forms(of: "run")
    #expect(["run", "runs", "running", "ran", "jogged"].allSatisfy(run.contains))
    #expect(HabitCheckIn.names(of: "Running") == ["run"])
    #expect(HabitCheckIn.names(of: "Swimming") == ["swim"])
    #expect(HabitCheckIn.names(of: "Stretching") == ["stretch"])
    #expect(["stretched", "stretching", "stretches"].allSatisfy(HabitCheckIn.forms(of: "stretch").contains))
  }

  @Test func everyWordOfTheHabitIsSaid() {
    let habits = ["Take vitamins", "Drink water"]
    #expect(HabitCheckIn.block("Took the kids to school this morning", habits: habits) == nil)
    #expect(HabitCheckIn.block("Watered the plants this morning", habits: habits) == nil)
    #expect(HabitCheckIn.block("took my vitamins", habits: habits)?.contains("Take vitamins") == true)
    #expect(HabitCheckIn.block("drank my water, done", habits: habits)?.contains("Drink water") == true)
  }
}
