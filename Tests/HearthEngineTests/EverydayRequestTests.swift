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

  @Test(arguments: reported)
  func aReportedRequestIsAnsweredFromTheDataWithTheRightFields(request: String) async throws {
    let testCase = try #require(AssistantCase.tuned.first { $0.request == request })
    let evaluation = AssistantEvaluation(model: try await Self.model.value)
    let outcome = try await evaluation.ask(testCase, home: try TestModels.temporaryDirectory())
    #expect(outcome.rightAction, "\(outcome.blocks) \(outcome.answer)")
    #expect(outcome.rightFields, "\(outcome.blocks)")
    #expect(outcome.rightFacts, "\(outcome.answer)")
  }

  @Test("a schedule question the model would have answered from nothing is looked up")
  func aQuestionAboutADayIsLookedUp() async throws {
    let testCase = try #require(AssistantCase.tuned.first { $0.request == "Do I have anything on Saturday?" })
    let evaluation = AssistantEvaluation(model: try await Self.model.value)
    let outcome = try await evaluation.ask(testCase, home: try TestModels.temporaryDirectory())
    #expect(outcome.blocks == [#"[CALENDAR_ACTION:{"action":"query","from":"2026-11-28","to":"2026-11-28"}]"#])
    #expect(outcome.answer.contains("Sat 2026-11-28 19:30–21:30: Dinner with Marco"), "\(outcome.answer)")
  }
}
