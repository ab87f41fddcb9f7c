import Foundation

/// Sentences spoken by espeak-ng (Debian's speech synthesizer) into WAV files, for speech-recognition tests.
public enum SpokenSentences {
  /// Plain sentences of the kind a person says to an assistant.
  public static let sentences = [
    "Remind me to call the dentist tomorrow morning.",
    "What is on my calendar for Friday afternoon?",
    "Add milk, eggs and bread to the shopping list.",
    "The meeting with the design team moved to next Tuesday.",
    "Please write a short note about the garden project.",
    "How many hours did I sleep last week?",
    "Book a table for four people at seven in the evening.",
    "The weather should be sunny and warm this weekend.",
    "Send a message to my sister that I will be late.",
    "Turn the music down and read me the latest news.",
    "I walked to the station and caught the early train.",
    "Water the plants in the kitchen every second day.",
  ]

  /// Speaks `text` into a WAV file at `path` (22,050 Hz mono, espeak-ng's own rate).
  public static func speak(_ text: String, to path: String, wordsPerMinute: Int = 150) async throws {
    let result = try await CommandRunner.runProcess(
      "/usr/bin/espeak-ng", ["-v", "en-us", "-s", String(wordsPerMinute), "-w", path, text])
    guard result.status == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.standardError])
    }
  }
}
