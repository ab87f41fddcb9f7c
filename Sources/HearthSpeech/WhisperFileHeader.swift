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

  /// The tensors whisper.cpp's Silero loader allocates, by name, with their shapes (ggml's order, innermost first)
  /// and whether they are half precision: a file that differs would stop it inside ggml.
  static let detectorTensors: [String: ([Int], Bool)] = [
    "_model.encoder.0.reparam_conv.weight": ([3, 129, 128], true),
    "_model.encoder.0.reparam_conv.bias": ([128], false),
    "_model.encoder.1.reparam_conv.weight": ([3, 128, 64], true),
    "_model.encoder.1.reparam_conv.bias": ([64], false),
    "_model.encoder.2.reparam_conv.weight": ([3, 64, 64], true),
    "_model.encoder.2.reparam_conv.bias": ([64], false),
    "_model.encoder.3.reparam_conv.weight": ([3, 64, 128], true),
    "_model.encoder.3.reparam_conv.bias": ([128], false),
    "_model.decoder.rnn.weight_ih": ([128, 512], false),
    "_model.decoder.rnn.weight_hh": ([128, 512], false),
    "_model.decoder.rnn.bias_ih": ([512], false),
    "_model.decoder.rnn.bias_hh": ([512], false),
    "_model.decoder.decoder.2.weight": ([128, 1], true),
    "_model.decoder.decoder.2.bias": ([1], false),
    "_model.stft.forward_basis_buffer": ([256, 1, 258], true),
  ]

  /// The same for a voice-activity model (Silero VAD in whisper.cpp's format), read whole: its header and every
  /// tensor's name, shape and size, so that whisper.cpp is never handed a file it would stop the process on.
  static func checkDetector(path: String) throws(SpeechError) {
    guard FileManager.default.fileExists(atPath: path) else { throw .detectorMissing(path: path) }
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
      throw .modelInvalid(path: path, reason: "it cannot be read")
    }
    var reader = LittleEndianReader(data: data)
    func invalid(_ reason: String) -> SpeechError { .modelInvalid(path: path, reason: reason) }
    guard reader.uint32() == magic else { throw invalid("it does not start with whisper.cpp's GGML magic") }
    guard let typeLength = reader.int32(), (1...64).contains(typeLength),
      let type = reader.bytes(Int(typeLength)).map({ String(decoding: $0, as: UTF8.self) }), type.hasPrefix("silero")
    else { throw invalid("it is not a Silero voice-activity model") }
    // Version (3), window and context (2), then the encoder's layers (3 each), the LSTM's and the final layer's.
    guard reader.int32s(5) != nil, let layers = reader.int32(), layers == 4, reader.int32s(3 * 4 + 4) != nil else {
      throw invalid("its hyper-parameters are not those of Silero VAD")
    }
    var seen: Set<String> = []
    while !reader.isAtEnd {
      guard let dimensions = reader.int32(), (1...4).contains(dimensions), let nameLength = reader.int32(),
        (1...256).contains(nameLength), let kind = reader.int32(), kind == 0 || kind == 1,
        let shape = reader.int32s(Int(dimensions)), let nameBytes = reader.bytes(Int(nameLength))
      else { throw invalid("a tensor's header is damaged") }
      let name = String(decoding: nameBytes, as: UTF8.self)
      guard let (expected, half) = detectorTensors[name], expected == shape.map(Int.init), half == (kind == 1) else {
        throw invalid("it holds a tensor whisper.cpp does not expect: \(name) \(shape)")
      }
      guard reader.bytes(expected.reduce(1, *) * (half ? 2 : 4)) != nil else {
        throw invalid("it ends inside \(name) (truncated?)")
      }
      seen.insert(name)
    }
    guard seen.count == detectorTensors.count else {
      throw invalid("it lacks \(Set(detectorTensors.keys).subtracting(seen).sorted().joined(separator: ", "))")
    }
  }
}

/// Reads little-endian numbers and bytes from the front of a file's data; `nil` past its end.
private struct LittleEndianReader {
  let data: Data
  var offset = 0

  var isAtEnd: Bool { offset >= data.count }

  mutating func bytes(_ count: Int) -> Data? {
    guard count >= 0, offset + count <= data.count else { return nil }
    defer { offset += count }
    return data.subdata(in: data.startIndex + offset..<data.startIndex + offset + count)
  }

  mutating func uint32() -> UInt32? {
    bytes(4).map { UInt32(littleEndian: $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) }
  }

  mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }

  mutating func int32s(_ count: Int) -> [Int32]? {
    var values: [Int32] = []
    for _ in 0..<count {
      guard let value = int32() else { return nil }
      values.append(value)
    }
    return values
  }
}
