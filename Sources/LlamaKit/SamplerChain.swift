internal import CLlama
import HearthCore

/// A llama.cpp sampler chain built from ``SamplingParameters``. Owned by one generation on the decode thread.
///
/// Plain greedy decoding (no penalty, no bias) picks the highest logit straight from the logits llama.cpp
/// computed — the very token its greedy sampler picks (the first of equal maxima) — without the 49,152-entry
/// candidate array the sampler builds on every token, which cost about 2 % of generation speed on SmolLM2
/// with two threads.
///
/// A grammar is kept apart from the chain and asked about the one token the chain picked, as llama.cpp's own
/// `common_sampler` does: only when it refuses that token is the whole vocabulary filtered through it and the
/// chain run again. Filtering 49,152 candidates through the grammar's stacks on every token had halved the
/// speed of constrained generation. For greedy decoding the pick is the same either way (the largest logit
/// the grammar allows); for random sampling, as in llama.cpp, a token the grammar allows is drawn from the
/// whole distribution first.
final class SamplerChain {
  let pointer: UnsafeMutablePointer<llama_sampler>
  /// The grammar, outside the chain; `nil` when generation is free.
  private let grammar: UnsafeMutablePointer<llama_sampler>?
  /// Filter the whole vocabulary through the grammar before the chain on every token (only to compare).
  private let grammarFirst: Bool
  /// Vocabulary entries to scan when decoding greedily without the chain; 0 when the chain samples.
  private var argmaxWidth = 0
  private let vocabularySize: Int
  /// How many picks the grammar refused, each costing a pass of the whole vocabulary through it.
  private(set) var refusals = 0
  /// The candidates the chain filters, made on first use and reused for every token.
  private var candidates: UnsafeMutableBufferPointer<llama_token_data>?
  /// The grammar followed in Swift, to tell what text it forces; `nil` without a grammar, for a lazy one until
  /// it starts, and for one the follower cannot read.
  private var follower: GrammarFollower?
  /// A lazy grammar's start while it has not come.
  private var lazyStart: LazyGrammarStart?
  private let grammarText: String?
  private let model: LlamaModel

  /// - Parameter directGreedy: pick plain greedy tokens from the logits (off only to compare with the chain).
  /// - Parameter grammarFirst: filter every token's candidates through the grammar before sampling (on only to
  ///   compare with asking the grammar about the pick).
  /// - Throws: ``LlamaError/invalidGrammar(reason:)`` when llama.cpp cannot parse `grammar`.
  /// - Parameter adjustments: logit bias and OpenAI's frequency and presence penalties.
  /// - Parameter followsGrammar: follow the grammar in Swift too, to tell what text it forces.
  init(
    _ parameters: SamplingParameters, grammar: String? = nil, grammarTrigger: String? = nil,
    adjustments: LogitAdjustments = .init(), model: LlamaModel, directGreedy: Bool = true, grammarFirst: Bool = false,
    followsGrammar: Bool = true
  ) throws(LlamaError) {
    self.vocabularySize = model.metadata.vocabularySize
    self.grammarFirst = grammarFirst
    self.model = model
    self.grammarText = grammar
    let vocabularySize = Int32(model.metadata.vocabularySize)
    if let grammar {
      let (constraint, errors) = LlamaLogCapture.capturingErrors {
        guard let grammarTrigger else { return llama_sampler_init_grammar(model.vocab, grammar, "root") }
        return grammarTrigger.withCString { pattern in
          var patterns: [UnsafePointer<CChar>?] = [pattern]
          return llama_sampler_init_grammar_lazy_patterns(model.vocab, grammar, "root", &patterns, 1, nil, 0)
        }
      }
      guard let constraint else {
        throw .invalidGrammar(reason: errors.last ?? "llama.cpp gave no reason")
      }
      self.grammar = constraint
      if !followsGrammar {
        // Nothing will be forced: the grammar is not read a second time.
      } else if let grammarTrigger {
        lazyStart = LazyGrammarStart(pattern: grammarTrigger)
      } else if let compiled = GrammarCache.shared.compiled(grammar) {
        follower = GrammarFollower(compiled)
      }
    } else {
      self.grammar = nil
    }
    var chainParams = llama_sampler_chain_default_params()
    chainParams.no_perf = true
    // Throwing after this still runs `deinit`, which frees the chain and the grammar.
    pointer = llama_sampler_chain_init(chainParams)
    if !adjustments.logitBias.isEmpty {
      let biases = adjustments.logitBias.sorted { $0.key < $1.key }.map {
        llama_logit_bias(token: $0.key, bias: Float($0.value))
      }
      llama_sampler_chain_add(
        pointer, llama_sampler_init_logit_bias(vocabularySize, Int32(biases.count), biases))
    }
    let repeats = parameters.repeatPenalty != 1 && parameters.repeatLastN > 0
    let counts = adjustments.frequencyPenalty != 0 || adjustments.presencePenalty != 0
    let penalises = repeats || counts
    if penalises {
      // OpenAI's penalties look at the same window as the repeat penalty (llama.cpp's default when that is off).
      let window = parameters.repeatLastN > 0 ? parameters.repeatLastN : SamplingParameters().repeatLastN
      llama_sampler_chain_add(
        pointer,
        llama_sampler_init_penalties(
          vocabularySize, Int32(clamping: window), repeats ? Float(parameters.repeatPenalty) : 1,
          Float(adjustments.frequencyPenalty), Float(adjustments.presencePenalty)))
    }
    if parameters.isGreedy {
      llama_sampler_chain_add(pointer, llama_sampler_init_greedy())
      if directGreedy, !penalises, adjustments.logitBias.isEmpty {
        argmaxWidth = Int(vocabularySize)
      }
      return
    }
    if parameters.topK > 0 {
      llama_sampler_chain_add(pointer, llama_sampler_init_top_k(Int32(clamping: parameters.topK)))
    }
    if parameters.topP < 1 {
      llama_sampler_chain_add(pointer, llama_sampler_init_top_p(Float(parameters.topP), 1))
    }
    if parameters.minP > 0 {
      llama_sampler_chain_add(pointer, llama_sampler_init_min_p(Float(parameters.minP), 1))
    }
    llama_sampler_chain_add(pointer, llama_sampler_init_temp(Float(parameters.temperature)))
    llama_sampler_chain_add(pointer, llama_sampler_init_dist(parameters.seed ?? UInt32.random(in: 0...UInt32.max - 1)))
  }

  /// Picks the next token from the logits of batch entry `index` (-1: the last evaluated) and records it.
  func sample(from context: OpaquePointer, index: Int32 = -1) -> Int32 {
    guard let logits = llama_get_logits_ith(context, index) else {
      return llama_sampler_sample(pointer, context, index)
    }
    let token: Int32
    if let grammar, grammarFirst {
      token = chainPick(logits, constrainedBy: grammar)
    } else {
      let pick =
        argmaxWidth > 0
        ? Int32(Self.firstMaximum(UnsafeBufferPointer(start: logits, count: argmaxWidth)))
        : chainPick(logits, constrainedBy: nil)
      if let grammar, !Self.allows(grammar, pick) {
        refusals += 1
        // Greedy without a chain: the likeliest token the grammar allows is usually among the next few, each
        // asked about alone, which costs far less than passing the whole vocabulary through the grammar.
        let likeliest =
          argmaxWidth > 0
          ? Self.likeliestAllowed(UnsafeBufferPointer(start: logits, count: argmaxWidth), by: grammar) : nil
        token = likeliest ?? chainPick(logits, constrainedBy: grammar)
      } else {
        token = pick
      }
    }
    record(token)
    return token
  }

  private func record(_ token: Int32) {
    if let grammar { llama_sampler_accept(grammar, token) }
    llama_sampler_accept(pointer, token)
    guard follower != nil || lazyStart != nil else { return }
    let piece = model.pieceBytes(of: token)
    if follower != nil {
      follower?.accept(bytes: piece)
    } else if let constrained = lazyStart?.append(piece) {
      // The same token started llama.cpp's grammar: it was fed the same text.
      lazyStart = nil
      if let grammarText, let compiled = GrammarCache.shared.compiled(grammarText) {
        var started = GrammarFollower(compiled)
        started.accept(bytes: Array(constrained.utf8))
        follower = started
      }
    }
  }

  /// The text the grammar allows as the only way on, up to `limit` characters; empty when it leaves a choice,
  /// or cannot be followed.
  func forcedText(limit: Int) -> String {
    guard let follower, !follower.isLost else { return "" }
    return follower.forcedText(limit: limit)
  }

  /// Records `token` as generated without sampling it, when the grammar allows it; returns whether it did.
  func force(_ token: Int32) -> Bool {
    guard let grammar, Self.allows(grammar, token) else { return false }
    record(token)
    return true
  }

  /// The chain's pick among every token of `logits`, after `grammar` when one is given; nothing is recorded.
  private func chainPick(
    _ logits: UnsafeMutablePointer<Float>, constrainedBy grammar: UnsafeMutablePointer<llama_sampler>?
  )
    -> Int32
  {
    let candidates = self.candidates ?? .allocate(capacity: vocabularySize)
    self.candidates = candidates
    for token in 0..<vocabularySize {
      candidates[token] = llama_token_data(id: Int32(token), logit: logits[token], p: 0)
    }
    var array = llama_token_data_array(data: candidates.baseAddress, size: vocabularySize, selected: -1, sorted: false)
    if let grammar { llama_sampler_apply(grammar, &array) }
    llama_sampler_apply(pointer, &array)
    // The chain ends in a picking sampler (greedy or a draw), which always selects one entry.
    guard array.selected >= 0, array.selected < array.size, let data = array.data else { return 0 }
    return data[Int(array.selected)].id
  }

  /// How many of the likeliest tokens are asked about one by one before the whole vocabulary is filtered.
  static let likeliestAsked = 32

  /// The token greedy decoding under `grammar` picks — the largest logit it allows, the first of equal ones —
  /// when it is among the ``likeliestAsked`` largest (ties in token order); `nil` when none of those is allowed.
  static func likeliestAllowed(
    _ logits: UnsafeBufferPointer<Float>, by grammar: UnsafeMutablePointer<llama_sampler>
  )
    -> Int32?
  {
    for token in LlamaSession.largest(likeliestAsked, of: logits) where allows(grammar, Int32(token)) {
      return Int32(token)
    }
    return nil
  }

  /// Whether `grammar`, in its present state, lets `token` come next.
  private static func allows(_ grammar: UnsafeMutablePointer<llama_sampler>, _ token: Int32) -> Bool {
    var single = llama_token_data(id: token, logit: 1, p: 0)
    return withUnsafeMutablePointer(to: &single) { pointer in
      var array = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
      llama_sampler_apply(grammar, &array)
      return pointer.pointee.logit != -Float.infinity
    }
  }

  /// The index of the first largest value: the largest value by eight lanes at a time, then its first place.
  static func firstMaximum(_ values: UnsafeBufferPointer<Float>) -> Int {
    let lanes = 8
    let whole = values.count / lanes * lanes
    var largest = -Float.infinity
    if whole > 0 {
      var running = SIMD8<Float>(repeating: -.infinity)
      var index = 0
      while index < whole {
        running = pointwiseMax(
          running, UnsafeRawPointer(values.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self))
        index += lanes
      }
      largest = running.max()
    }
    for index in whole..<values.count where values[index] > largest { largest = values[index] }
    return values.firstIndex { $0 == largest } ?? 0
  }

  deinit {
    let pointer = pointer
    let grammar = grammar
    LlamaBackend.unlessExiting {
      llama_sampler_free(pointer)
      if let grammar { llama_sampler_free(grammar) }
    }
    candidates?.deallocate()
  }
}

/// Changes to the logits before the sampling filters: per-token biases and OpenAI's count-based penalties.
struct LogitAdjustments {
  var logitBias: [Int32: Double] = [:]
  var frequencyPenalty: Double = 0
  var presencePenalty: Double = 0
}

extension LogitAdjustments {
  init(_ options: GenerationOptions) {
    self.init(
      logitBias: options.logitBias, frequencyPenalty: options.frequencyPenalty,
      presencePenalty: options.presencePenalty)
  }
}
