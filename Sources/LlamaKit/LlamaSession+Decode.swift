internal import CLlama
import Foundation
import HearthCore

/// Decode-thread helpers: filling the batch, evaluating it and keeping `cachedTokens` in step with the KV
/// cache.
extension LlamaSession {
  /// Evaluates `tokens` in the first slot's sequence at positions starting from `position`; logits only for
  /// the last one when asked. (Generations go through the batch step; this serves the warm-up and tests.)
  /// - Throws: ``LlamaError/decodeFailed(code:position:)``.
  func decode(_ tokens: ArraySlice<Int32>, at position: Int, wantLogits: Bool) throws(LlamaError) {
    precondition(!tokens.isEmpty && tokens.count <= batchSize)
    batch.n_tokens = Int32(tokens.count)
    for (offset, token) in tokens.enumerated() {
      batch.token[offset] = token
      batch.pos[offset] = Int32(position + offset)
      batch.n_seq_id[offset] = 1
      batch.seq_id[offset]![0] = 0
      batch.logits[offset] = 0
    }
    if wantLogits { batch.logits[tokens.count - 1] = 1 }
    let (context, batch) = (context, batch)
    guard let code = LlamaBackend.unlessExiting({ llama_decode(context, batch) }) else {
      throw .decodeFailed(code: -1, position: position)
    }
    guard code == 0 else { throw .decodeFailed(code: code, position: position) }
  }

  func decode(_ tokens: [Int32], at position: Int, wantLogits: Bool) throws(LlamaError) {
    try decode(tokens[...], at: position, wantLogits: wantLogits)
  }

  /// Drops the state in `slot` that `prompt` cannot reuse and returns how many leading prompt tokens are
  /// kept. At least the last prompt token is always left to evaluate, because its logits start the answer.
  func reusablePrefix(for prompt: [Int32], in slot: Int) -> Int {
    let cached = slots[slot].cachedTokens
    let sequence = Int32(slot)
    var common = zip(cached, prompt).prefix { $0 == $1 }.count
    common = min(common, prompt.count - 1)
    let memory = llama_get_memory(context)
    if common < cached.count {
      if !llama_memory_seq_rm(memory, sequence, Int32(common), -1) {
        common = 0
      }
    }
    // Sliding-window layers only keep recent positions; if what the suffix needs is gone, start over.
    let window = model.slidingWindow
    if common > 0, window > 0, Int(llama_memory_seq_pos_min(memory, sequence)) > max(0, common - window) {
      common = 0
    }
    if common == 0 {
      llama_memory_seq_rm(memory, sequence, -1, -1)
    }
    slots[slot].cachedTokens.removeLast(cached.count - common)
    return common
  }
}

extension LlamaSession {
  /// The log probability of `token` and of the `alternatives` most likely tokens at the batch entry `index`
  /// (-1: the last evaluated), from the raw logits (a softmax over the whole vocabulary, before any sampling filter).
  func logprob(of token: Int32, alternatives: Int, index: Int32 = -1) -> TokenLogprob? {
    let width = model.metadata.vocabularySize
    guard let pointer = llama_get_logits_ith(context, index), Int(token) < width else { return nil }
    let logits = UnsafeBufferPointer(start: pointer, count: width)
    let largest = logits.max() ?? 0
    var sum = 0.0
    for logit in logits { sum += Double(exp(logit - largest)) }
    let normaliser = Double(largest) + log(sum)
    func entry(_ id: Int) -> TokenLogprob.Entry {
      TokenLogprob.Entry(
        id: Int32(id), bytes: model.pieceBytes(of: Int32(id)), logprob: min(0, Double(logits[id]) - normaliser))
    }
    return TokenLogprob(chosen: entry(Int(token)), top: Self.largest(alternatives, of: logits).map(entry))
  }

  /// The indices of the `count` largest values, largest first (the lower index first among equals).
  static func largest(_ count: Int, of values: UnsafeBufferPointer<Float>) -> [Int] {
    guard count > 0 else { return [] }
    var best: [Int] = []
    best.reserveCapacity(count + 1)
    for index in values.indices {
      guard best.count < count || values[index] > values[best[best.count - 1]] else { continue }
      let place = best.firstIndex { values[index] > values[$0] } ?? best.count
      best.insert(index, at: place)
      if best.count > count { best.removeLast() }
    }
    return best
  }
}
