internal import CLlama
import HearthCore

/// A llama.cpp sampler chain built from ``SamplingParameters``. Owned by one generation on the decode thread.
///
/// Plain greedy decoding (no grammar, no penalty) is the one exception: it picks the highest logit straight
/// from the logits llama.cpp computed — the very token its greedy sampler picks (the first of equal
/// maxima) — without the 49,152-entry candidate array the sampler builds on every token, which cost about
/// 2 % of generation speed on SmolLM2 with two threads.
final class SamplerChain {
  let pointer: UnsafeMutablePointer<llama_sampler>
  /// Vocabulary entries to scan when decoding greedily without the chain; 0 when the chain samples.
  private var argmaxWidth = 0

  /// - Parameter directGreedy: pick plain greedy tokens from the logits (off only to compare with the chain).
  /// - Throws: ``LlamaError/invalidGrammar(reason:)`` when llama.cpp cannot parse `grammar`.
  /// - Parameter adjustments: logit bias and OpenAI's frequency and presence penalties.
  init(
    _ parameters: SamplingParameters, grammar: String? = nil, grammarTrigger: String? = nil,
    adjustments: LogitAdjustments = .init(), model: LlamaModel, directGreedy: Bool = true
  ) throws(LlamaError) {
    let vocabularySize = Int32(model.metadata.vocabularySize)
    var chainParams = llama_sampler_chain_default_params()
    chainParams.no_perf = true
    pointer = llama_sampler_chain_init(chainParams)
    if let grammar {
      // Constraining first keeps every later stage (penalties, greedy, top-k) within what the grammar allows.
      let (constraint, errors) = LlamaLogCapture.capturingErrors {
        guard let grammarTrigger else { return llama_sampler_init_grammar(model.vocab, grammar, "root") }
        return grammarTrigger.withCString { pattern in
          var patterns: [UnsafePointer<CChar>?] = [pattern]
          return llama_sampler_init_grammar_lazy_patterns(model.vocab, grammar, "root", &patterns, 1, nil, 0)
        }
      }
      // Throwing after `pointer` is set still runs `deinit`, which frees the chain.
      guard let constraint else {
        throw .invalidGrammar(reason: errors.last ?? "llama.cpp gave no reason")
      }
      llama_sampler_chain_add(pointer, constraint)
    }
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
      if directGreedy, grammar == nil, !penalises, adjustments.logitBias.isEmpty {
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
    if argmaxWidth > 0, let logits = llama_get_logits_ith(context, index) {
      return Int32(Self.firstMaximum(UnsafeBufferPointer(start: logits, count: argmaxWidth)))
    }
    return llama_sampler_sample(pointer, context, index)
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
    LlamaBackend.unlessExiting { llama_sampler_free(pointer) }
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
