public import Foundation

/// Turns the bytes of an audio file into a 16 kHz mono clip: WAV is read here; anything else (MP3, Ogg, FLAC,
/// WebM, M4A…) goes through ffmpeg when it is installed.
public struct AudioLoader: Sendable {
  /// The longest audio transcribed at once, in seconds.
  public var maxDuration: Double
  /// The ffmpeg executable, when one was found.
  public var ffmpeg: URL?

  /// A loader; ffmpeg is looked for as `$HEARTH_FFMPEG`, else on `$PATH`.
  public init(
    maxDuration: Double = 3_600, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.maxDuration = maxDuration
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

  private func decodeWithFFmpeg(_ data: Data) throws(SpeechError) -> AudioClip {
    let format = Self.formatName(data)
    guard let ffmpeg else { throw .decoderMissing(format: format) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hearth-audio-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("input")
    let output = folder.appendingPathComponent("output.f32")
    let errors = folder.appendingPathComponent("errors.txt")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try data.write(to: input)
      _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
      let process = Process()
      process.executableURL = ffmpeg
      process.arguments = [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-i", input.path,
        // One second past the limit, so that an over-long file is reported as such rather than cut.
        "-t", String(Int(maxDuration) + 1), "-vn", "-ac", "1", "-ar", String(AudioClip.recognitionRate),
        "-f", "f32le", "-y", output.path,
      ]
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let firstLine = message.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
        throw SpeechError.undecodable(reason: "ffmpeg cannot read it as audio (\(format)): \(firstLine)")
      }
      let raw = try Data(contentsOf: output)
      let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
      return AudioClip(samples: samples, sampleRate: AudioClip.recognitionRate)
    } catch let error as SpeechError {
      throw error
    } catch {
      throw .undecodable(reason: "ffmpeg could not be run (\(error.localizedDescription))")
    }
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
