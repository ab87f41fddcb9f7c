import Foundation

/// What was said in a clip, with when.
public struct Transcript: Sendable, Hashable, Codable {
  /// One stretch of speech.
  public struct Segment: Sendable, Hashable, Codable {
    /// Where it starts, in seconds from the clip's start.
    public var start: Double
    /// Where it ends.
    public var end: Double
    /// The words, trimmed.
    public var text: String

    /// A segment.
    public init(start: Double, end: Double, text: String) {
      self.start = start
      self.end = end
      self.text = text
    }
  }

  /// The whole text: the segments joined by spaces.
  public var text: String { segments.map(\.text).joined(separator: " ") }
  /// The segments, in order.
  public var segments: [Segment]
  /// The language transcribed (an ISO 639-1 code such as `en`).
  public var language: String
  /// The clip's length in seconds.
  public var duration: Double
  /// The time spent recognising, in seconds (not counting loading the model or decoding the file).
  public var processingSeconds: Double

  /// A transcript.
  public init(segments: [Segment], language: String, duration: Double, processingSeconds: Double) {
    self.segments = segments
    self.language = language
    self.duration = duration
    self.processingSeconds = processingSeconds
  }

  /// Processing time over audio length: below 1 is faster than real time.
  public var realTimeFactor: Double {
    duration > 0 ? processingSeconds / duration : 0
  }

  /// The transcript as SubRip subtitles.
  public var srt: String {
    segments.enumerated().map { index, segment in
      "\(index + 1)\n\(Self.clock(segment.start, separator: ",")) --> \(Self.clock(segment.end, separator: ","))\n"
        + "\(segment.text)\n"
    }.joined(separator: "\n")
  }

  /// The transcript as WebVTT subtitles.
  public var webVTT: String {
    "WEBVTT\n\n"
      + segments.map { segment in
        "\(Self.clock(segment.start, separator: ".")) --> \(Self.clock(segment.end, separator: "."))\n\(segment.text)\n"
      }.joined(separator: "\n")
  }

  /// `HH:MM:SS.mmm` (WebVTT; SubRip uses a comma).
  public static func clock(_ seconds: Double, separator: String = ".") -> String {
    let millis = Int((max(0, seconds) * 1_000).rounded())
    let (hours, rest) = millis.quotientAndRemainder(dividingBy: 3_600_000)
    let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
    let (secs, ms) = rest2.quotientAndRemainder(dividingBy: 1_000)
    return String(format: "%02d:%02d:%02d", hours, minutes, secs) + separator + String(format: "%03d", ms)
  }

  private enum CodingKeys: String, CodingKey {
    case text, segments, language, duration
    case processingSeconds = "processing_seconds"
    case realTimeFactor = "real_time_factor"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .text)
    try container.encode(segments, forKey: .segments)
    try container.encode(language, forKey: .language)
    try container.encode(duration, forKey: .duration)
    try container.encode(processingSeconds, forKey: .processingSeconds)
    try container.encode(realTimeFactor, forKey: .realTimeFactor)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    segments = try container.decode([Segment].self, forKey: .segments)
    language = try container.decode(String.self, forKey: .language)
    duration = try container.decode(Double.self, forKey: .duration)
    processingSeconds = try container.decode(Double.self, forKey: .processingSeconds)
  }
}

/// How to transcribe.
public struct TranscriptionOptions: Sendable, Hashable {
  /// The spoken language (ISO 639-1), or `nil` to detect it; English-only models always use `en`.
  public var language: String?
  /// Text that sets the style and spelling (names, terms) the model should follow.
  public var prompt: String?
  /// Sampling temperature for the first attempt; 0 is greedy, and the model retries warmer when it gets stuck.
  public var temperature: Double
  /// The longest the recognition may take, in seconds.
  public var timeLimit: Double
  /// CPU threads for whisper.cpp; `nil` uses every core.
  public var threads: Int?
  /// Whether silence before the first speech and after the last is cut when the recognizer has a voice-activity
  /// model (the whole clip is heard otherwise).
  public var cutsSilence: Bool

  /// Options; by default greedy decoding with a five-minute limit, silence cut.
  public init(
    language: String? = nil, prompt: String? = nil, temperature: Double = 0, timeLimit: Double = 300,
    threads: Int? = nil, cutsSilence: Bool = true
  ) {
    self.language = language
    self.prompt = prompt
    self.temperature = temperature
    self.timeLimit = timeLimit
    self.threads = threads
    self.cutsSilence = cutsSilence
  }
}
