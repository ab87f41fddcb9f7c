import Foundation

/// Checks the start of a whisper.cpp model file before whisper.cpp reads it: the magic number, plausible
/// hyper-parameters and a size that can hold them.
enum WhisperFileHeader {
  static let magic: UInt32 = 0x6767_6D6C

  static func check(path: String) throws(SpeechError) {
    guard FileManager.default.fileExists(atPath: path) else { throw .modelMissing(path: path) }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .modelInvalid(path: path, reason: "it cannot be read")
    }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 48)) ?? Data()
    let size = (try? handle.seekToEnd()) ?? 0
    guard head.count == 48 else { throw .modelInvalid(path: path, reason: "it is too short to be a model") }
    let words = (0..<12).map { index in
      head.subdata(in: index * 4..<index * 4 + 4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
    guard UInt32(littleEndian: words[0]) == magic else {
      throw .modelInvalid(path: path, reason: "it does not start with whisper.cpp's GGML magic")
    }
    let values = words.dropFirst().map { Int(Int32(bitPattern: UInt32(littleEndian: $0))) }
    let (vocabulary, audioContext, audioState, audioHeads, audioLayers) = (
      values[0], values[1], values[2], values[3], values[4]
    )
    let (textContext, textState, textHeads, textLayers, mels) = (values[5], values[6], values[7], values[8], values[9])
    let plausible =
      (1...1_000_000).contains(vocabulary) && (1...100_000).contains(audioContext)
      && (1...100_000).contains(textContext) && (1...65_536).contains(audioState)
      && (1...65_536).contains(textState) && (1...1_024).contains(audioHeads) && (1...1_024).contains(textHeads)
      && (1...1_024).contains(audioLayers) && (1...1_024).contains(textLayers) && (1...1_024).contains(mels)
    guard plausible else { throw .modelInvalid(path: path, reason: "its hyper-parameters are out of range") }
    // The token embedding alone is n_vocab × n_text_state half-precision numbers.
    guard size >= UInt64(vocabulary * textState * 2) else {
      throw .modelInvalid(path: path, reason: "it is \(size) bytes, too short for its own header (truncated?)")
    }
  }
}
