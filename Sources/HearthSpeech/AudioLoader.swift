public import Foundation
import HearthCore

/// Turns the bytes of an audio file into a 16 kHz mono clip: WAV is read here; anything else (MP3, Ogg, FLAC,
/// WebM, M4A…) goes through ffmpeg when it is installed.
public struct AudioLoader: Sendable {
  /// The longest audio transcribed at once, in seconds.
  public var maxDuration: Double
  /// The ffmpeg executable, when one was found.
  public var ffmpeg: URL?
  /// Longest ffmpeg may take to decode one file.
  public var decodeTimeLimit: Duration

  /// A loader; ffmpeg is looked for as `$HEARTH_FFMPEG`, else on `$PATH`.
  public init(
    maxDuration: Double = 3_600, decodeTimeLimit: Duration = .seconds(120),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.maxDuration = maxDuration
    self.decodeTimeLimit = decodeTimeLimit
    self.ffmpeg = Self.findFFmpeg(environment)
  }

  /// The audio in `data` at 16 kHz.
  /// - Throws: ``SpeechError`` for empty, unreadable or over-long audio, or a format needing a missing ffmpeg.
  public func load(_ data: Data) throws(SpeechError) -> AudioClip {
    guard !data.isEmpty else { throw .emptyAudio }
    let clip: AudioClip
    if WAVDecoder.looksLikeWAV(data) {
      clip = try WAVDecoder.decode(data)
    } else {
      clip = try decodeWithFFmpeg(data)
    }
    guard clip.duration <= maxDuration else { throw .tooLong(seconds: clip.duration, limit: maxDuration) }
    return clip.atRecognitionRate()
  }

  /// The audio in the file at `path` at 16 kHz.
  /// - Throws: ``SpeechError/undecodable(reason:)`` when the file cannot be read, and as ``load(_:)``.
  public func load(path: String) throws(SpeechError) -> AudioClip {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
    } catch {
      throw .undecodable(reason: "\(path) cannot be read (\(error.localizedDescription))")
    }
    return try load(data)
  }

  /// What a file's first bytes say it is, for messages.
  static func formatName(_ data: Data) -> String {
    let head = [UInt8](data.prefix(12))
    func starts(_ text: String) -> Bool { head.starts(with: Array(text.utf8)) }
    if starts("ID3") || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) { return "MP3 audio" }
    if starts("OggS") { return "Ogg audio" }
    if starts("fLaC") { return "FLAC audio" }
    if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "WebM/Matroska" }
    if head.count >= 8 && Array(head[4..<8]) == Array("ftyp".utf8) { return "MP4/M4A" }
    if starts("RIFF") { return "a RIFF file that is not WAVE" }
    return unrecognised
  }

  /// What ``formatName(_:)`` says of bytes it does not recognise.
  static let unrecognised = "not a recognised audio format"

  /// Demuxers ffmpeg may use: the audio containers a browser or a phone records, nothing that can reach out
  /// to other files or the network (playlists, concat lists, image sequences).
  static let allowedFormats = "mp3,ogg,flac,matroska,webm,mov,mp4,m4a,3gp,3g2,mj2,aac,wav,w64,aiff,caf,amr"
  /// ffmpeg's arguments for an upload in `input`: read as a file only, by an audio demuxer only, written
  /// to standard output as 16 kHz mono floats.
  func ffmpegArguments(input: String) -> [String] {
    [
      "-nostdin", "-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file",
      "-format_whitelist", Self.allowedFormats, "-i", input,
      // One second past the limit, so that an over-long file is reported as such rather than cut.
      "-t", String(Int(maxDuration) + 1), "-vn", "-ac", "1", "-ar", String(AudioClip.recognitionRate),
      "-f", "f32le", "pipe:1",
    ]
  }

  private func decodeWithFFmpeg(_ data: Data) throws(SpeechError) -> AudioClip {
    let format = Self.formatName(data)
    guard let ffmpeg else { throw .decoderMissing(format: format) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hearth-audio-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("input")
    let outcome: BoundedProcess.Outcome
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try data.write(to: input)
      // Room for the longest clip taken, and one second more.
      let samplesAllowed = (Int(maxDuration) + 2) * AudioClip.recognitionRate
      outcome = try BoundedProcess(
        executable: ffmpeg, arguments: ffmpegArguments(input: input.path),
        outputLimit: samplesAllowed * MemoryLayout<Float>.size, timeLimit: decodeTimeLimit
      ).runBlocking()
    } catch {
      throw .undecodable(reason: "ffmpeg could not be run (\(error))")
    }
    if let stop = outcome.stopped {
      throw .undecodable(reason: "ffmpeg was stopped: \(stop)")
    }
    guard outcome.status == 0 else {
      let lastLine = outcome.errors.split(separator: "\n").last.map(String.init) ?? "exit \(outcome.status)"
      throw .undecodable(reason: "ffmpeg cannot read it as audio (\(format)): \(lastLine)")
    }
    let samples = outcome.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    return AudioClip(samples: samples, sampleRate: AudioClip.recognitionRate)
  }

  private static func findFFmpeg(_ environment: [String: String]) -> URL? {
    if let explicit = environment["HEARTH_FFMPEG"], !explicit.isEmpty {
      return FileManager.default.isExecutableFile(atPath: explicit) ? URL(fileURLWithPath: explicit) : nil
    }
    for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
    }
    return nil
  }
}
