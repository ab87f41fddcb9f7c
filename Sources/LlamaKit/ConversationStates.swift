internal import CLlama
import Foundation
import HearthCore

/// A conversation's evaluated state kept on disk: when a session goes idle, the tokens each slot holds for a
/// conversation and llama.cpp's state of them are written to the conversation's file, so its next turn, in
/// this process or after a restart, starts where it ended instead of reading the whole chat again.
///
/// Files are written whole under a temporary name and then renamed; one that does not load (damaged, from
/// another model, build or context size) is removed and the conversation is read again. The oldest files
/// beyond the key's byte budget are removed after each write.
enum ConversationStates {
  /// The file of `key` for a context of `identity`: the conversation's name (so deleting a conversation
  /// can remove its files) and a hash of what makes a state usable (model, llama.cpp build, window).
  static func file(for key: ConversationStateKey, identity: String) -> URL {
    var hash = FNV1a()
    hash.add(identity.utf8)
    return key.directory.appendingPathComponent("\(key.filePrefix)\(hash.hex).kv")
  }

  /// Removes the oldest files in `directory` until they take at most `budget` bytes.
  static func prune(_ directory: URL, budget: UInt64) {
    let manager = FileManager.default
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
    guard let names = try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else {
      return
    }
    let files = names.filter { $0.pathExtension == "kv" }.map { url in
      let values = try? url.resourceValues(forKeys: Set(keys))
      return (url, values?.contentModificationDate ?? .distantPast, UInt64(values?.fileSize ?? 0))
    }
    var total = files.reduce(0) { $0 + $1.2 }
    for (url, _, size) in files.sorted(by: { $0.1 < $1.1 }) where total > budget {
      try? manager.removeItem(at: url)
      total -= size
    }
  }
}

extension LlamaSession {
  /// What makes a saved state usable by this context: the model file and llama.cpp build, and the window.
  var stateIdentity: String { "\(PrefixCache.modelKey(for: model))\n\(contextSize)" }

  /// On the decode thread: when `key`'s file holds more of `prompt` than the `reused` tokens `slot` already
  /// has, replaces the slot's state with it (cut to what the prompt shares) and returns how many prompt tokens
  /// are now cached; otherwise returns `reused`. A file that does not load is removed, and the slot is left
  /// empty if it had been cleared for it.
  func restoreConversation(_ key: ConversationStateKey, of prompt: [Int32], in slot: Int, over reused: Int) -> Int {
    guard model.slidingWindow == 0 else { return reused }
    let file = ConversationStates.file(for: key, identity: stateIdentity)
    guard let data = FileManager.default.contents(atPath: file.path) else { return reused }
    guard let saved = SavedPrefix(data) else {
      try? FileManager.default.removeItem(at: file)
      return reused
    }
    let shared = min(zip(saved.tokens, prompt).prefix { $0 == $1 }.count, prompt.count - 1)
    // Restoring costs a read of the file: worth it only for more than a few tokens beyond what is cached.
    guard shared > reused + 16 else { return reused }
    guard load(saved, into: slot),
      shared == saved.tokens.count
        || llama_memory_seq_rm(llama_get_memory(context), llama_seq_id(slot), Int32(shared), -1)
    else {
      forget(slot: slot)
      try? FileManager.default.removeItem(at: file)
      return 0
    }
    slots[slot].cachedTokens = Array(saved.tokens[..<shared])
    slots[slot].holds = key
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
    return shared
  }

  /// On the decode thread: writes the conversation state of every slot that holds one not yet written.
  func saveConversations() {
    for slot in slots.indices where slots[slot].unsaved != nil { saveConversation(in: slot) }
  }

  /// On the decode thread: writes what `slot` holds to its conversation's file.
  func saveConversation(in slot: Int) {
    guard let key = slots[slot].unsaved else { return }
    slots[slot].unsaved = nil
    guard !slots[slot].cachedTokens.isEmpty else { return }
    write(slot: slot, to: ConversationStates.file(for: key, identity: stateIdentity))
    ConversationStates.prune(key.directory, budget: key.budgetBytes)
  }
}
