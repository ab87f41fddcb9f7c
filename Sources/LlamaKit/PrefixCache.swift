internal import CLlama
import Foundation
import HearthCore

/// Evaluated prompt prefixes kept on disk, one file per model and prefix: the KV state of the leading
/// tokens a prompt shares with every other run (the assistant's instructions), so that a fresh process or a
/// reloaded model starts after them instead of reading them again.
///
/// Files are written whole under a temporary name and then renamed, so a reader never sees half a file; one
/// that does not load (damaged, from another build of llama.cpp) is removed and the prefix is read again.
/// The oldest files beyond ``keptFiles`` are removed after each write.
struct PrefixCache: Sendable {
  /// Files kept in the directory; the prefix changes at most daily, so a few cover every model in use.
  static let keptFiles = 8

  let directory: URL
  /// Names the model file and the llama.cpp build: state from another model or build is never offered.
  let modelKey: String

  init(directory: URL, model: LlamaModel) {
    self.directory = directory
    self.modelKey = Self.modelKey(for: model)
  }

  /// Names the model file (path, size, modification time) and the llama.cpp build: saved state from another
  /// model or build is never offered.
  static func modelKey(for model: LlamaModel) -> String {
    let attributes = try? FileManager.default.attributesOfItem(atPath: model.path)
    let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let build = String(cString: llama_print_system_info())
    return "\(model.path)\n\(size)\n\(modified)\n\(build)"
  }

  /// Where the state of `tokens` is kept.
  func file(for tokens: ArraySlice<Int32>) -> URL {
    var hash = FNV1a()
    hash.add(modelKey.utf8)
    for token in tokens { hash.add(token) }
    return directory.appendingPathComponent("prefix-\(hash.hex).kv")
  }

  /// Removes all but the newest ``keptFiles`` prefix files.
  func prune() {
    let manager = FileManager.default
    guard
      let names = try? manager.contentsOfDirectory(
        at: directory, includingPropertiesForKeys: [.contentModificationDateKey])
    else { return }
    let files = names.filter { $0.lastPathComponent.hasPrefix("prefix-") && $0.pathExtension == "kv" }
    guard files.count > Self.keptFiles else { return }
    let byAge = files.sorted { modified($0) > modified($1) }
    for stale in byAge.dropFirst(Self.keptFiles) { try? manager.removeItem(at: stale) }
  }

  private func modified(_ url: URL) -> Date {
    (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
  }
}

/// The part of one prompt whose state is kept on disk: its first `length` tokens, in `file`.
struct PrefixPlan: Sendable {
  let length: Int
  let file: URL
}

/// 64-bit FNV-1a: a stable name for a prefix file. Collisions cost nothing but a miss, because a loaded
/// file's tokens are compared with the prompt's before its state is used.
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
  }

  mutating func add(_ token: Int32) {
    withUnsafeBytes(of: token.littleEndian) { add($0) }
  }

  /// Adds `raw` 64 bits at a time (the tail byte by byte): fast enough for tens of megabytes.
  mutating func add(words raw: UnsafeRawBufferPointer) {
    let words = raw.count / 8
    for index in 0..<words {
      value ^= raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
      value = value &* 0x100_0000_01b3
    }
    add(raw[(words * 8)...])
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension LlamaSession {
  /// The plan for `prompt` (the tokens of `text`) when its options name a reusable prefix this session can
  /// keep: the prefix's tokens are those `prompt` shares with the tokens of the text up to the prefix's end,
  /// less the last (a token may join across the seam), and at least one prompt token is left to evaluate.
  func prefixPlan(prompt: [Int32], text: String, options: GenerationOptions) -> PrefixPlan? {
    guard let prefixCache, let prefix = options.reusablePrefix, !prefix.isEmpty, model.slidingWindow == 0,
      let range = text.range(of: prefix)
    else { return nil }
    guard let head = try? model.tokenize(String(text[..<range.upperBound]), addSpecial: true, parseSpecial: true)
    else { return nil }
    let shared = zip(head, prompt).prefix { $0 == $1 }.count
    let length = min(shared - 1, prompt.count - 1)
    // Too short to be worth a file.
    guard length >= 32 else { return nil }
    return PrefixPlan(length: length, file: prefixCache.file(for: prompt[..<length]))
  }

  /// On the decode thread: replaces what `slot` holds with the plan's saved prefix when its file is whole
  /// and holds exactly the prompt's first tokens. Returns whether it did; a file that does not fit is removed.
  func restorePrefix(_ plan: PrefixPlan, of prompt: [Int32], in slot: Int) -> Bool {
    guard let data = FileManager.default.contents(atPath: plan.file.path) else { return false }
    guard let saved = SavedPrefix(data), saved.tokens[...] == prompt[..<plan.length] else {
      try? FileManager.default.removeItem(at: plan.file)
      return false
    }
    guard load(saved, into: slot) else {
      try? FileManager.default.removeItem(at: plan.file)
      return false
    }
    slots[slot].cachedTokens = saved.tokens
    // Marks the file as recently used, so pruning keeps it.
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: plan.file.path)
    return true
  }

  /// On the decode thread, with exactly the plan's tokens in `slot`: writes their state to the plan's file.
  /// A write that fails leaves no file (the cache is an optimisation: the next run reads the prefix again).
  func savePrefix(_ plan: PrefixPlan, in slot: Int) {
    guard let prefixCache, slots[slot].cachedTokens.count == plan.length else { return }
    write(slot: slot, to: plan.file)
    prefixCache.prune()
  }

  /// On the decode thread: replaces what `slot` holds with `saved`'s state. Returns whether llama.cpp took it
  /// whole; when it did not, the slot is left empty. The slot's tokens are the caller's to set.
  func load(_ saved: SavedPrefix, into slot: Int) -> Bool {
    forget(slot: slot)
    let read = saved.state.withUnsafeBytes { bytes in
      LlamaLogCapture.capturingErrors {
        llama_state_seq_set_data(
          context, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, llama_seq_id(slot))
      }.0
    }
    guard read == saved.state.count else {
      forget(slot: slot)
      return false
    }
    return true
  }

  /// On the decode thread: writes what `slot` holds — its tokens and llama.cpp's state of them — to `file`,
  /// whole or not at all (a write that fails leaves no file: the next run reads the prompt again).
  func write(slot: Int, to file: URL) {
    let sequence = llama_seq_id(slot)
    var state = [UInt8](repeating: 0, count: llama_state_seq_get_size(context, sequence))
    let written = state.withUnsafeMutableBufferPointer {
      llama_state_seq_get_data(context, $0.baseAddress, $0.count, sequence)
    }
    guard written == state.count else { return }
    let manager = FileManager.default
    let folder = file.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(slot).tmp")
    do {
      try manager.createDirectory(at: folder, withIntermediateDirectories: true)
      try SavedPrefix(tokens: slots[slot].cachedTokens, state: state).encoded().write(to: temporary)
      // rename(2) replaces a file another process wrote meanwhile in one step.
      guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    } catch {
      try? manager.removeItem(at: temporary)
    }
  }
}

/// A prefix file: a header (magic, version, token count, state size, checksum of the rest), the tokens and
/// llama.cpp's state of them. llama.cpp's own loader trusts its input, so a file is checked whole before
/// any of it reaches llama.cpp.
struct SavedPrefix {
  private static let magic: [UInt8] = Array("HEARTHKV".utf8)
  private static let version: UInt32 = 1
  private static let headerSize = 8 + 4 + 4 + 8 + 8

  let tokens: [Int32]
  let state: [UInt8]

  init(tokens: [Int32], state: [UInt8]) {
    self.tokens = tokens
    self.state = state
  }

  /// Reads a file's bytes; `nil` unless they are whole and unchanged.
  init?(_ data: Data) {
    let bytes = [UInt8](data)
    guard bytes.count >= Self.headerSize, Array(bytes[0..<8]) == Self.magic,
      Self.read(UInt32.self, bytes, at: 8) == Self.version
    else { return nil }
    let count = Int(Self.read(UInt32.self, bytes, at: 12))
    let stateSize = Self.read(UInt64.self, bytes, at: 16)
    let checksum = Self.read(UInt64.self, bytes, at: 24)
    guard stateSize <= UInt64(bytes.count), bytes.count == Self.headerSize + count * 4 + Int(stateSize) else {
      return nil
    }
    let body = bytes[Self.headerSize...]
    guard Self.checksum(body) == checksum else { return nil }
    tokens = (0..<count).map { Int32(bitPattern: Self.read(UInt32.self, bytes, at: Self.headerSize + $0 * 4)) }
    state = Array(bytes[(Self.headerSize + count * 4)...])
  }

  func encoded() -> Data {
    var body: [UInt8] = []
    body.reserveCapacity(tokens.count * 4 + state.count)
    for token in tokens { withUnsafeBytes(of: UInt32(bitPattern: token).littleEndian) { body += $0 } }
    body += state
    var data = Data(Self.magic)
    for field in [UInt64(Self.version) | UInt64(tokens.count) << 32, UInt64(state.count), Self.checksum(body[...])] {
      withUnsafeBytes(of: field.littleEndian) { data.append(contentsOf: $0) }
    }
    data.append(contentsOf: body)
    return data
  }

  private static func read<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], at offset: Int) -> Value {
    bytes.withUnsafeBytes { Value(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Value.self)) }
  }

  /// FNV-1a over 64-bit words, the file's check that it is whole and unchanged.
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash = FNV1a()
    bytes.withUnsafeBytes { hash.add(words: $0) }
    return hash.value
  }
}
