public import Foundation
import HearthEngine
import HearthSpeech

/// The clips the speech benchmark transcribes: whisper.cpp's jfk.wav, and a minute of speech made here by
/// espeak-ng (Debian's synthesizer) from a fixed passage, brought to 16 kHz and padded with silence to 60 s.
public enum SpeechClips {
  /// Where the set-up put whisper.cpp: `$HEARTH_WHISPER_PREFIX`, else the default cache prefix.
  public static func whisperPrefix(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    if let prefix = environment["HEARTH_WHISPER_PREFIX"], !prefix.isEmpty { return prefix }
    return HearthPaths.cacheFolder(environment: environment).appendingPathComponent("whisper.cpp-1.8.5").path
  }

  /// What jfk.wav says.
  public static let jfkText =
    "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

  /// About 55 seconds of an assistant's day, read at 150 words a minute.
  public static let passage = """
    Good morning. Today you have three meetings. The first one is with the design team at nine, in the small \
    room on the second floor. After that, you planned to review the budget for the garden project and send it \
    to your sister before lunch. The weather will be cloudy in the morning and sunny in the afternoon, so it is \
    a good day to walk to the station instead of taking the bus. Remember that the dentist moved your \
    appointment to Thursday at four. You also wanted to buy milk, bread, apples and coffee on the way home. In \
    the evening there is a concert in the park, and the tickets are in your email. Before you go to sleep, \
    water the plants in the kitchen and set the alarm for six thirty, because the train to the coast leaves \
    early tomorrow.
    """

  /// jfk.wav and the minute-long clip, the latter written into `folder`.
  /// - Throws: ``BenchmarkError`` when espeak-ng is missing or fails, or jfk.wav is not installed.
  public static func make(in folder: URL) async throws(BenchmarkError) -> [SpeechBenchmark.Clip] {
    let jfk = "\(whisperPrefix())/samples/jfk.wav"
    guard FileManager.default.fileExists(atPath: jfk) else {
      throw .toolMissing(name: "jfk.wav", searched: ["\(whisperPrefix())/samples"])
    }
    let spoken = folder.appendingPathComponent("passage-22k.wav").path
    let output = try await ChildProcess(
      executable: "/usr/bin/espeak-ng", arguments: ["-v", "en-us", "-s", "150", "-w", spoken, passage]
    ).run()
    guard output.status == 0 else { throw .toolFailed(tool: "espeak-ng", reason: output.standardError) }
    var clip: AudioClip
    do {
      clip = try AudioLoader().load(path: spoken)
    } catch {
      throw .measurementFailed("the spoken passage cannot be read: \(error)")
    }
    let minute = 60 * AudioClip.recognitionRate
    if clip.samples.count < minute {
      clip.samples += [Float](repeating: 0, count: minute - clip.samples.count)
    }
    let path = folder.appendingPathComponent("minute.wav").path
    do {
      try clip.wavData().write(to: URL(fileURLWithPath: path))
    } catch {
      throw .measurementFailed("cannot write \(path): \(error)")
    }
    return [
      SpeechBenchmark.Clip(name: "jfk.wav", path: jfk, reference: jfkText),
      SpeechBenchmark.Clip(name: "60 s clip", path: path, reference: passage),
    ]
  }
}
