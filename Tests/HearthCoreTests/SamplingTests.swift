import HearthCore
import Testing

@Suite("Sampling and generation options")
struct SamplingTests {
  @Test func acceptsTheDefaultsAndGreedy() throws {
    try SamplingParameters().validate()
    try SamplingParameters.greedy.validate()
    try GenerationOptions().validate()
    #expect(SamplingParameters.greedy.isGreedy)
  }

  @Test(arguments: [
    (SamplingParameters(temperature: -0.1), "temperature"),
    (SamplingParameters(temperature: .infinity), "temperature"),
    (SamplingParameters(topK: -1), "top-k"),
    (SamplingParameters(topP: 0), "top-p"),
    (SamplingParameters(topP: 1.5), "top-p"),
    (SamplingParameters(minP: -0.5), "min-p"),
    (SamplingParameters(repeatPenalty: 0), "repeat penalty"),
    (SamplingParameters(repeatLastN: -2), "repeat window"),
  ])
  func rejectsOutOfRangeValues(_ parameters: SamplingParameters, _ name: String) {
    let error = #expect(throws: InvalidParameterError.self) { try parameters.validate() }
    #expect(error?.name == name)
    #expect(error?.description.hasPrefix("invalid \(name)") == true)
  }

  @Test func rejectsBadLengthsAndTimeouts() {
    #expect(throws: InvalidParameterError.self) { try GenerationOptions(maxNewTokens: 0).validate() }
    #expect(throws: InvalidParameterError.self) { try GenerationOptions(timeout: .zero).validate() }
  }

  @Test func computesRates() {
    let usage = GenerationUsage(
      promptTokens: 100, reusedPromptTokens: 20, prefilledTokens: 80, generatedTokens: 11,
      prefillDuration: .milliseconds(400), timeToFirstToken: .milliseconds(450),
      generationDuration: .milliseconds(500))
    #expect(usage.prefillTokensPerSecond == 200)
    #expect(usage.generationTokensPerSecond == 20)
    #expect(Duration.milliseconds(1500).seconds == 1.5)
  }
}
