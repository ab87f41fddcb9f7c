import Foundation
import HearthSpeech
import Testing

/// WAV bytes built by hand: header fields can be anything a test needs, including wrong.
struct WAVBuilder {
  var format: UInt16 = 1
  var channels: UInt16 = 1
  var sampleRate: UInt32 = 16_000
  var bitsPerSample: UInt16 = 16
  var extensible = false
  var declaredDataSize: UInt32?

  func build(_ payload: [UInt8]) -> Data {
    var fmt: [UInt8] = []
    fmt += le(extensible ? 0xFFFE : format) + le(channels) + le(sampleRate)
    let blockAlign = UInt16(Int(channels) * Int(bitsPerSample) / 8)
    fmt += le(sampleRate * UInt32(blockAlign)) + le(blockAlign) + le(bitsPerSample)
    if extensible {
      fmt += le(UInt16(22)) + le(bitsPerSample) + le(UInt32(0)) + le(format)
      fmt += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
    }
    var body: [UInt8] = Array("WAVE".utf8)
    body += Array("LIST".utf8) + le(UInt32(3)) + [1, 2, 3, 0]  // an odd-sized chunk to skip, with its pad byte
    body += Array("fmt ".utf8) + le(UInt32(fmt.count)) + fmt
    body += Array("data".utf8) + le(declaredDataSize ?? UInt32(payload.count)) + payload
    return Data(Array("RIFF".utf8) + le(UInt32(body.count)) + body)
  }

  private func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian, Array.init)
  }
}

@Suite struct WAVDecoderTests {
  @Test func reads16BitStereoAndMixesItToMono() throws {
    let frames: [Int16] = [16_384, -16_384, 32_767, 32_767]  // (L, R) pairs
    let payload = frames.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
    let clip = try WAVDecoder.decode(WAVBuilder(channels: 2, sampleRate: 44_100).build(payload))
    #expect(clip.sampleRate == 44_100)
    #expect(clip.samples.count == 2)
    #expect(abs(clip.samples[0]) < 1e-6)
    #expect(abs(clip.samples[1] - 32_767 / 32_768) < 1e-6)
  }

  @Test func reads8And24BitIntegersAndFloats() throws {
    let eight = try WAVDecoder.decode(WAVBuilder(bitsPerSample: 8).build([0, 128, 255]))
    #expect(eight.samples == [-1, 0, 127.0 / 128])
    // -2 and 2^22 as 24-bit little-endian.
    let twentyFour = try WAVDecoder.decode(WAVBuilder(bitsPerSample: 24).build([0xFE, 0xFF, 0xFF, 0, 0, 0x40]))
    #expect(twentyFour.samples == [-2.0 / 8_388_608, 0.5])
    let floats: [Float] = [0.25, -0.75, 3, .nan]
    let payload = floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
    let float = try WAVDecoder.decode(WAVBuilder(format: 3, bitsPerSample: 32, extensible: true).build(payload))
    #expect(float.samples == [0.25, -0.75, 1, 0])
  }

  @Test func readsATruncatedDataChunkAsFarAsWholeFramesGo() throws {
    // The header promises 1,000 bytes; 5 arrived: two whole 16-bit frames.
    let clip = try WAVDecoder.decode(WAVBuilder(declaredDataSize: 1_000).build([0, 64, 0, 192, 7]))
    #expect(clip.samples == [0.5, -0.5])
  }

  @Test(arguments: [
    (WAVBuilder(sampleRate: 0), "sample rate of 0"),
    (WAVBuilder(channels: 0), "0 channels"),
    (WAVBuilder(format: 2, bitsPerSample: 4), "not PCM or float"),
  ])
  func refusesHeadersThatMakeNoSense(builder: WAVBuilder, message: String) {
    #expect {
      try WAVDecoder.decode(builder.build([0, 0]))
    } throws: { error in
      (error as? SpeechError).map { String(describing: $0).contains(message) } ?? false
    }
  }

  @Test func refusesFilesWithoutTheChunksItNeeds() {
    var noData = Data("RIFF".utf8) + Data([4, 0, 0, 0]) + Data("WAVE".utf8)
    #expect(throws: SpeechError.invalidWAV(reason: "it has no fmt chunk")) { try WAVDecoder.decode(noData) }
    noData = Data("RIFF....WAVEfmt ".utf8) + Data([2, 0, 0, 0, 1, 0])
    #expect(throws: SpeechError.self) { try WAVDecoder.decode(noData) }
    #expect(throws: SpeechError.self) { try WAVDecoder.decode(Data("hello, not audio".utf8)) }
  }
}

@Suite struct AudioLoaderTests {
  @Test func emptyBytesAreNoAudio() {
    #expect(throws: SpeechError.emptyAudio) { try AudioLoader().load(Data()) }
  }

  @Test func otherFormatsWithoutFFmpegNameTheFormatAndTheFix() {
    let loader = AudioLoader(environment: ["HEARTH_FFMPEG": "/nonexistent/ffmpeg", "PATH": "/nonexistent"])
    #expect(throws: SpeechError.decoderMissing(format: "Ogg audio")) {
      try loader.load(Data("OggS".utf8) + Data(repeating: 0, count: 64))
    }
    #expect(throws: SpeechError.decoderMissing(format: "not a recognised audio format")) {
      try loader.load(Data("{\"text\": \"json\"}".utf8))
    }
  }

  /// A stand-in for ffmpeg: a shell script that keeps its arguments in `arguments.txt` beside it and then
  /// runs `body`.
  private func fakeFFmpeg(_ body: String) throws -> (loader: AudioLoader, arguments: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-ffmpeg-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("ffmpeg")
    let arguments = folder.appendingPathComponent("arguments.txt")
    try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(arguments.path)'\n\(body)\n".write(
      to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let loader = AudioLoader(decodeTimeLimit: .milliseconds(500), environment: ["HEARTH_FFMPEG": script.path])
    return (loader, arguments)
  }

  @Test func ffmpegReadsOnlyTheFileWithAnAudioDemuxerAndIsStoppedWhenItHangs() throws {
    let ogg = Data("OggS".utf8) + Data(repeating: 0, count: 64)
    // Four zero floats on standard output: a clip of four samples.
    let (decoding, arguments) = try fakeFFmpeg("head -c 16 /dev/zero")
    let clip = try decoding.load(ogg)
    #expect(clip.samples == [0, 0, 0, 0])
    let given = try String(contentsOf: arguments, encoding: .utf8).split(separator: "\n").map(String.init)
    let protocols = try #require(given.firstIndex(of: "-protocol_whitelist"))
    #expect(given[protocols + 1] == "file")
    let formats = try #require(given.firstIndex(of: "-format_whitelist"))
    #expect(!given[formats + 1].contains("hls") && !given[formats + 1].contains("concat"))
    #expect(given[formats + 1].split(separator: ",").contains("ogg"))
    #expect(formats < given.firstIndex(of: "-i")!)
    let (hanging, _) = try fakeFFmpeg("trap '' TERM; sleep 30")
    let clock = ContinuousClock()
    let start = clock.now
    #expect(throws: SpeechError.undecodable(reason: "ffmpeg was stopped: it ran longer than 0.5 s")) {
      try hanging.load(ogg)
    }
    #expect(clock.now - start < .seconds(10))
  }

  @Test func refusesAudioBeyondTheLimitAndResamplesTheRest() throws {
    let second = WAVBuilder(sampleRate: 8_000).build([UInt8](repeating: 0, count: 16_000))
    #expect(throws: SpeechError.tooLong(seconds: 1, limit: 0.5)) { try AudioLoader(maxDuration: 0.5).load(second) }
    let clip = try AudioLoader().load(second)
    #expect(clip.sampleRate == 16_000)
    #expect(clip.samples.count == 16_000)
  }
}

@Suite struct ResamplerTests {
  private func tone(_ frequency: Double, rate: Int, seconds: Double = 0.5) -> [Float] {
    (0..<Int(Double(rate) * seconds)).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
  }

  /// The tone's amplitude at `frequency` (a single-bin Fourier sum over the middle of the signal).
  private func amplitude(_ signal: [Float], frequency: Double, rate: Int) -> Double {
    let middle = signal[signal.count / 4..<signal.count * 3 / 4]
    var re = 0.0
    var im = 0.0
    for (n, value) in zip(middle.indices, middle) {
      let angle = 2 * Double.pi * frequency * Double(n) / Double(rate)
      re += Double(value) * cos(angle)
      im += Double(value) * sin(angle)
    }
    return 2 * (re * re + im * im).squareRoot() / Double(middle.count)
  }

  @Test(arguments: [44_100, 48_000, 22_050, 8_000, 11_025])
  func keepsASpeechBandToneAndItsLoudness(rate: Int) {
    let out = Resampler(from: rate, to: 16_000).resample(tone(440, rate: rate))
    #expect(abs(out.count - 8_000) <= 1)
    #expect(abs(amplitude(out, frequency: 440, rate: 16_000) - 0.5) < 0.01)
  }

  @Test func removesWhatTheLowerRateCannotHold() {
    // 12 kHz fits at 48 kHz but not at 16 kHz, where it would fold back to 4 kHz.
    let out = Resampler(from: 48_000, to: 16_000).resample(tone(12_000, rate: 48_000))
    #expect(amplitude(out, frequency: 4_000, rate: 16_000) < 0.01)
  }

  @Test func keepsAConstantConstantUpToTheEdges() {
    let out = Resampler(from: 44_100, to: 16_000).resample([Float](repeating: 0.25, count: 4_410))
    #expect(out.allSatisfy { abs($0 - 0.25) < 1e-4 })
  }
}

@Suite struct TranscriptFormatTests {
  let transcript = Transcript(
    segments: [.init(start: 0, end: 2.5, text: "Hello there."), .init(start: 3_725.04, end: 3_726, text: "Bye.")],
    language: "en", duration: 3_726, processingSeconds: 372.6)

  @Test func subtitlesInBothFormats() {
    #expect(
      transcript.srt == "1\n00:00:00,000 --> 00:00:02,500\nHello there.\n\n2\n01:02:05,040 --> 01:02:06,000\nBye.\n")
    #expect(
      transcript.webVTT
        == "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello there.\n\n01:02:05.040 --> 01:02:06.000\nBye.\n")
    #expect(transcript.text == "Hello there. Bye.")
    #expect(abs(transcript.realTimeFactor - 0.1) < 1e-9)
  }

  @Test func wordErrorRateIgnoresCaseAndPunctuation() {
    #expect(WordErrorRate.of("and so, my FELLOW americans", against: "And so my fellow Americans.") == 0)
    #expect(WordErrorRate.of("ask what you can do", against: "ask not what you can do") == 1.0 / 6)
    #expect(WordErrorRate.of("", against: "two words") == 1)
    #expect(WordErrorRate.words("don't stop—now") == ["don't", "stop", "now"])
  }
}
