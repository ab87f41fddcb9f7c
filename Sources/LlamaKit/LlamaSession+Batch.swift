internal import CLlama
import HearthCore
import Synchronization

/// One sequence of a session's context: the tokens whose state it holds, from position 0.
struct ContextSlot {
  var cachedTokens: [Int32] = []
  /// The batch step in which the slot last took part, so the one used longest ago is given away first.
  var lastUsed: UInt64 = 0
  /// The conversation whose state the slot holds and has not written to disk yet.
  var unsaved: ConversationStateKey?
  /// The conversation the slot holds (written or not): its file can give it nothing the slot does not have.
  var holds: ConversationStateKey?
}

/// The batch step: every running generation advances in one `llama_decode` per step.
extension LlamaSession {
  /// Queues `run` for a slot and makes sure the session's step is on the executor.
  func admit(_ run: GenerationRun) {
    let schedule = status.withLock { state in
      state.waiting.append(run)
      state.unfinished += 1
      defer { state.stepping = true }
      return !state.stepping
    }
    if schedule { executor.enqueue { [self] in step() } }
  }

  /// One step on the decode thread: ends runs that were stopped, gives free slots to waiting runs, then
  /// evaluates one batch holding each generating run's pending token and as much prompt as the batch has room
  /// for (requests people wait on first). Returns whether there is more to do.
  func step() -> Bool {
    stepCount += 1
    running.removeAll { $0.endIfStopped() }
    // A run ending reports to `status`, so waiting runs are checked outside its lock.
    let waiting = status.withLock { $0.waiting }
    if !waiting.filter({ $0.endIfStopped() }).isEmpty {
      status.withLock { $0.waiting.removeAll { $0.isOver } }
    }
    fillFreeSlots()
    var inputs: [(run: GenerationRun, input: GenerationRun.Input)] = []
    var room = batchSize
    // Generating runs each add one token, and the tokens their grammar forces; prompts share what is left, the
    // more urgent first. Only a run generating alone, with nobody waiting, adds drafted tokens: a draft may be
    // thrown away, and with others the batch's work is already shared. Forced tokens are never thrown away,
    // and each saves the run a step.
    let generating = running.filter { !$0.isReadingPrompt }
    let alone = generating.count == 1 && running.count == 1 && status.withLock { $0.waiting.isEmpty }
    for (index, run) in generating.enumerated() {
      // Each run after this one keeps room for its pending token.
      let later = generating.count - index - 1
      guard let input = run.input(budget: room - later, mayDraft: alone) else { continue }
      inputs.append((run, input))
      room -= input.tokens.count
    }
    for run in running.filter(\.isReadingPrompt).sorted(by: Self.goesFirst) where room > 0 {
      guard let input = run.input(budget: room) else { continue }
      inputs.append((run, input))
      room -= input.tokens.count
    }
    // In ascending sequence order: llama.cpp then evaluates the batch as one micro-batch instead of
    // splitting it wherever the sequence ids step back.
    inputs.sort { ($0.run.slot ?? 0) < ($1.run.slot ?? 0) }
    if !inputs.isEmpty { evaluate(inputs) }
    running.removeAll(where: \.isOver)
    // Gone idle: conversations are written now, not while anyone waits for a token.
    if running.isEmpty, status.withLock({ $0.waiting.isEmpty }) { saveConversations() }
    let (more, idleWaiters) = status.withLock { state in
      state.stepping = !(state.waiting.isEmpty && running.isEmpty)
      guard !state.stepping, state.unfinished == 0 else {
        return (state.stepping, [CheckedContinuation<Void, Never>]())
      }
      defer { state.idleWaiters.removeAll() }
      return (false, state.idleWaiters)
    }
    idleWaiters.forEach { $0.resume() }
    return more
  }

  /// Requests people wait on before background work; earlier before later.
  static func goesFirst(_ left: GenerationRun, _ right: GenerationRun) -> Bool {
    if left.options.isBackground != right.options.isBackground { return !left.options.isBackground }
    return left.arrival < right.arrival
  }

  /// Gives each free slot to the most urgent waiting run: the slot that already holds most of its prompt,
  /// or else the one used longest ago (so other slots keep what they hold for their next turns).
  /// A run that asks for a slot of its own waits for that one, and lets others pass meanwhile.
  private func fillFreeSlots() {
    while running.count < slotCount {
      let taken = Set(running.compactMap(\.slot))
      let next = status.withLock { state -> GenerationRun? in
        let fitting = state.waiting.filter { run in run.options.slot.map { !taken.contains($0) } ?? true }
        guard let first = fitting.min(by: Self.goesFirst) else { return nil }
        state.waiting.removeAll { $0 === first }
        return first
      }
      guard let run = next else { return }
      let free = run.options.slot.map { [$0] } ?? slots.indices.filter { !taken.contains($0) }
      let shared = { (slot: Int) in zip(self.slots[slot].cachedTokens, run.prompt).prefix { $0 == $1 }.count }
      let best = free.max { left, right in
        let (a, b) = (shared(left), shared(right))
        return a != b ? a < b : slots[left].lastUsed > slots[right].lastUsed
      }
      guard let slot = best else { return }
      // What the slot holds of another conversation is written before it is given away.
      if let unsaved = slots[slot].unsaved, unsaved != run.options.conversationState { saveConversation(in: slot) }
      run.begin(on: slot)
      if !run.isOver { running.append(run) }
    }
  }

  /// Evaluates one batch of every run's input and lets each run read its logits.
  private func evaluate(_ inputs: [(run: GenerationRun, input: GenerationRun.Input)]) {
    var count = 0
    var logitsAt: [Int32?] = []
    for (run, input) in inputs {
      guard let slot = run.slot else { continue }
      slots[slot].lastUsed = stepCount
      for (offset, token) in input.tokens.enumerated() {
        batch.token[count] = token
        batch.pos[count] = Int32(input.position + offset)
        batch.n_seq_id[count] = 1
        batch.seq_id[count]![0] = Int32(slot)
        batch.logits[count] = 0
        count += 1
      }
      for offset in (count - input.logitCount)..<count { batch.logits[offset] = 1 }
      logitsAt.append(input.logitCount > 0 ? Int32(count - input.logitCount) : nil)
    }
    batch.n_tokens = Int32(count)
    let (context, batch) = (context, batch)
    let code = LlamaBackend.unlessExiting { llama_decode(context, batch) } ?? -1
    guard code == 0 else {
      for (run, input) in inputs { run.fail(.decodeFailed(code: code, position: input.position)) }
      return
    }
    for ((run, input), logits) in zip(inputs, logitsAt) { run.evaluated(input, logits: logits) }
  }

  /// Called by a run on the decode thread when it ends.
  /// Idle waiters hear of it at the end of the step, once what going idle writes is written.
  func runEnded(_ run: GenerationRun, record: GenerationRecord) {
    status.withLock { state in
      state.unfinished -= 1
      state.lastRecord = record
    }
  }

  /// Drops what `slot` holds from `position` on (drafted tokens the model did not keep), on the decode thread;
  /// `false` when the cache cannot drop a part (the slot is then forgotten whole, and its run cannot go on).
  func dropTokens(of slot: Int, from position: Int) -> Bool {
    guard llama_memory_seq_rm(llama_get_memory(context), Int32(slot), Int32(position), -1) else {
      forget(slot: slot)
      return false
    }
    slots[slot].cachedTokens.removeLast(max(0, slots[slot].cachedTokens.count - position))
    return true
  }

  /// Drops what `slot` holds, on the decode thread.
  func forget(slot: Int) {
    llama_memory_seq_rm(llama_get_memory(context), Int32(slot), -1, -1)
    slots[slot].cachedTokens.removeAll()
    slots[slot].unsaved = nil
    slots[slot].holds = nil
  }
}
