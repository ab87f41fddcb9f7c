internal import CLlama
import HearthCore

/// A llama.cpp sampler chain built from ``SamplingParameters``. Owned by one generation on the decode thread.
final class SamplerChain {
  let pointer: UnsafeMutablePointer<llama_sampler>

  /// - Throws: ``LlamaError/invalidGrammar(reason:)`` when llama.cpp cannot parse `grammar`.
  init(_ parameters: SamplingParameters, grammar: String? = nil, model: LlamaModel) throws(LlamaError) {
    let vocabularySize = Int32(model.metadata.vocabularySize)
    var chainParams = llama_sampler_chain_default_params()
    chainParams.no_perf = true
    pointer = llama_sampler_chain_init(chainParams)
    if let grammar {
      // Constraining first keeps every later stage (penalties, greedy, top-k) within what the grammar allows.
      let (constraint, errors) = LlamaLogCapture.capturingErrors {
        llama_sampler_init_grammar(model.vocab, grammar, "root")
      }
      // Throwing after `pointer` is set still runs `deinit`, which frees the chain.
      guard let constraint else {
        throw .invalidGrammar(reason: errors.last ?? "llama.cpp gave no reason")
      }
      llama_sampler_chain_add(pointer, constraint)
    }
    if parameters.repeatPenalty != 1, parameters.repeatLastN > 0 {
      llama_sampler_chain_add(
        pointer,
        llama_sampler_init_penalties(
          vocabularySize, Int32(clamping: parameters.repeatLastN), Float(parameters.repeatPenalty), 0, 0))
    }
    if parameters.isGreedy {
      llama_sampler_chain_add(pointer, llama_sampler_init_greedy())
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

  /// Picks the next token from the logits of the last evaluated position and records it.
  func sample(from context: OpaquePointer) -> Int32 {
    llama_sampler_sample(pointer, context, -1)
  }

  deinit {
    llama_sampler_free(pointer)
  }
}
