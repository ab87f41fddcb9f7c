/// What a generation is asked to do besides the prompt.
public struct GenerationOptions: Sendable, Hashable {
  /// The most tokens to generate.
  public var maxNewTokens: Int
  /// How tokens are chosen.
  public var sampling: SamplingParameters
  /// Wall-clock limit for the whole generation; the partial answer is kept when it runs out.
  public var timeout: Duration?
  /// Keep generating past end-of-generation tokens until `maxNewTokens`; for benchmarks that need a fixed
  /// number of tokens whatever the model says.
  public var ignoresEndOfGeneration: Bool
  /// A GBNF grammar (root rule `root`) the output must follow, or `nil` for free text.
  public var grammar: String?
  /// When set, the grammar is lazy: output is free until everything generated so far fully matches this
  /// regular expression (ECMAScript), and from its first capture group on it must follow the grammar.
  public var grammarTrigger: String?
  /// Added to the logits of these tokens (by the model's own token ids) before sampling; -100 all but bans a
  /// token, 100 all but forces it.
  public var logitBias: [Int32: Double] = [:]
  /// Lowers a token's logit by this much for each time it has already been generated (OpenAI's
  /// `frequency_penalty`, -2 to 2); 0 is off.
  public var frequencyPenalty: Double = 0
  /// Lowers a token's logit by this much once it has been generated at all (OpenAI's `presence_penalty`);
  /// 0 is off.
  public var presencePenalty: Double = 0
  /// When set, every generated token is reported with its log probability and this many of the most likely
  /// alternatives (0 to ``maxTopLogprobs``), as ``GenerationEvent/logprob(_:)`` events.
  public var logprobs: Int?

  /// When set, reading the prompt is reported as ``GenerationEvent/promptProgress(_:)`` events: once when it
  /// starts (what the cache already held) and after every batch.
  public var reportsPromptProgress = false

  /// Text the prompt's first message begins with that is the same from run to run (the assistant's own
  /// instructions): a local model keeps that part's evaluated state on disk, so a later run, in this process
  /// or another, starts after it instead of reading it again. Never text that holds the user's data: the
  /// saved state is shared by every profile on the machine.
  public var reusablePrefix: String?

  /// Where a local model keeps this conversation's evaluated state when it goes idle, and looks for it when
  /// the conversation's next turn starts, so that a turn after a restart does not read the whole chat again;
  /// `nil` keeps none.
  public var conversationState: ConversationStateKey?

  /// The slot of a local model serving several requests at once to generate in (llama-server's `id_slot`):
  /// the request waits for that slot, and finds what it last held; `nil` takes any free slot.
  public var slot: Int?

  /// Work no person is waiting on (a summary, a scheduled task): on a model that serves several requests at
  /// once it gets a slot, and room in each batch, only after every request someone waits on.
  public var isBackground = false

  /// Only a model trusted to write an answer from facts may answer (a remote server the user counts as
  /// capable, or a local model of ``ChatModel/writesFromFacts()`` size): a router does not fall back to a
  /// smaller local model, and fails instead, so the caller shows the facts as they are.
  public var needsCapableModel = false

  /// Up to this many tokens per step are drafted from the prompt and the answer so far (``PromptLookup``) and
  /// checked by the model in one batch, when a local model generates alone; 0 drafts none. The answer is the
  /// one plain decoding gives; copying a given text (quoting, correcting, rewriting) comes out faster.
  public var draftTokens = 0

  /// What becomes of text a grammar leaves as the only way on (a schema's keys and punctuation,
  /// ``GrammarFollower``): by default its tokens are evaluated in one batch. Never with ``logprobs``, which
  /// need every token's logits.
  public var forcedText = ForcedText.batched

  /// Most alternatives a token may be reported with.
  public static let maxTopLogprobs = 20
  /// Most tokens drafted per step.
  public static let maxDraftTokens = 16

  /// Whether the options name tokens by the local model's ids (or one of its slots), so only that model can
  /// honour them.
  public var usesTokenIDs: Bool { !logitBias.isEmpty || logprobs != nil || slot != nil }

  /// Creates options.
  public init(
    maxNewTokens: Int = 512, sampling: SamplingParameters = .init(), timeout: Duration? = nil,
    ignoresEndOfGeneration: Bool = false, grammar: String? = nil, grammarTrigger: String? = nil
  ) {
    self.grammarTrigger = grammarTrigger
    self.maxNewTokens = maxNewTokens
    self.sampling = sampling
    self.timeout = timeout
    self.ignoresEndOfGeneration = ignoresEndOfGeneration
    self.grammar = grammar
  }

  /// Checks every value is in its range.
  public func validate() throws(InvalidParameterError) {
    guard maxNewTokens > 0 else {
      throw .init(name: "max new tokens", value: "\(maxNewTokens)", expected: "a positive count")
    }
    if let timeout, timeout <= .zero {
      throw .init(name: "timeout", value: "\(timeout)", expected: "a positive duration")
    }
    for (name, value) in [("frequency penalty", frequencyPenalty), ("presence penalty", presencePenalty)] {
      guard value.isFinite, (-2...2).contains(value) else {
        throw .init(name: name, value: "\(value)", expected: "a number from -2 to 2")
      }
    }
    if let (token, bias) = logitBias.first(where: { $0.key < 0 || !$0.value.isFinite || abs($0.value) > 100 }) {
      throw .init(name: "logit bias", value: "\(token): \(bias)", expected: "a token id and a bias from -100 to 100")
    }
    guard (0...Self.maxDraftTokens).contains(draftTokens) else {
      throw .init(name: "draft tokens", value: "\(draftTokens)", expected: "0 to \(Self.maxDraftTokens)")
    }
    if let logprobs, !(0...Self.maxTopLogprobs).contains(logprobs) {
      throw .init(name: "top logprobs", value: "\(logprobs)", expected: "0 to \(Self.maxTopLogprobs)")
    }
    if let grammar {
      do {
        try GrammarLimits.check(grammar)
      } catch {
        throw .init(name: "grammar", value: error.limit, expected: "a grammar within Hearth's limits")
      }
    }
    try sampling.validate()
  }
}

/// What generation does with text a grammar forces.
public enum ForcedText: String, Sendable, Hashable, CaseIterable {
  /// The tokenizer's tokens for it, evaluated in one batch after the token before.
  case batched
  /// The same tokens, evaluated one per step (only to compare: the answer is the batched one).
  case stepwise
  /// Sampled token by token like free text: the model may spell it otherwise (`s`, `t`, `a`, `rt`).
  case sampled
}

/// Why a generation ended without an error.
public enum StopReason: String, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The model produced its end-of-generation token.
  case endOfGeneration = "end_of_generation"
  /// The requested number of new tokens was reached.
  case maxTokens = "max_tokens"
  /// The context window has no room for another token.
  case contextFull = "context_full"
  /// The consumer stopped listening or its task was cancelled; the partial answer stands.
  case cancelled
  /// The time limit ran out; the partial answer stands.
  case timeout
  /// The answer began repeating itself (``RepetitionGuard``): it was stopped there, keeping one copy.
  case repetition

  public var description: String { rawValue }
}

/// Token counts and timings of one generation.
public struct GenerationUsage: Sendable, Hashable, Codable {
  /// Tokens in the prompt.
  public var promptTokens: Int
  /// Prompt tokens whose cached state was reused from an earlier turn.
  public var reusedPromptTokens: Int
  /// Prompt tokens that had to be evaluated (`promptTokens - reusedPromptTokens`).
  public var prefilledTokens: Int
  /// Tokens generated.
  public var generatedTokens: Int
  /// Time spent evaluating the prompt.
  public var prefillDuration: Duration
  /// Time from the request to the first generated token (`nil` when none was generated).
  public var timeToFirstToken: Duration?
  /// Time from the first generated token to the last: `generatedTokens - 1` steps of decoding the
  /// previous token and sampling the next.
  public var generationDuration: Duration
  /// Which model produced the tokens; `nil` from a model that does not say (a local one).
  public var provider: Provider?
  /// Tokens drafted from the prompt and answer (``GenerationOptions/draftTokens``), and how many of them the
  /// model kept; `nil` when none were drafted.
  public var draftedTokens: Int?
  public var keptDraftTokens: Int?
  /// Tokens written because the grammar left no other way on (``GenerationOptions/forcedText``), evaluated in
  /// batches without being sampled; `nil` when there were none.
  public var forcedTokens: Int?

  /// Creates usage figures.
  public init(
    promptTokens: Int,
    reusedPromptTokens: Int,
    prefilledTokens: Int,
    generatedTokens: Int,
    prefillDuration: Duration,
    timeToFirstToken: Duration?,
    generationDuration: Duration,
    provider: Provider? = nil
  ) {
    self.promptTokens = promptTokens
    self.reusedPromptTokens = reusedPromptTokens
    self.prefilledTokens = prefilledTokens
    self.generatedTokens = generatedTokens
    self.prefillDuration = prefillDuration
    self.timeToFirstToken = timeToFirstToken
    self.generationDuration = generationDuration
    self.provider = provider
  }

  /// Prompt evaluation speed in tokens per second (0 when nothing was evaluated).
  public var prefillTokensPerSecond: Double {
    Self.rate(prefilledTokens, prefillDuration)
  }

  /// Generation speed in tokens per second after the first token (0 with fewer than two tokens).
  public var generationTokensPerSecond: Double {
    Self.rate(generatedTokens - 1, generationDuration)
  }

  private static func rate(_ count: Int, _ duration: Duration) -> Double {
    let seconds = duration.seconds
    return count > 0 && seconds > 0 ? Double(count) / seconds : 0
  }
}

/// One event of a streamed generation.
public enum GenerationEvent: Sendable, Hashable {
  /// Newly generated text; always whole UTF-8 characters.
  case token(String)
  /// Counts and timings, sent once just before `done`.
  case usage(GenerationUsage)
  /// The generation ended for this reason; nothing follows.
  case done(StopReason)
  /// How likely the token just generated was, sent before its text when ``GenerationOptions/logprobs`` asks.
  case logprob(TokenLogprob)
  /// How far reading the prompt has come, when ``GenerationOptions/reportsPromptProgress`` asks.
  case promptProgress(PromptProgress)
}

/// How far a generation has come in reading its prompt.
public struct PromptProgress: Sendable, Hashable {
  /// The prompt's tokens.
  public var total: Int
  /// Those whose state was already cached from an earlier prompt.
  public var cached: Int
  /// Those read so far, the cached ones included.
  public var processed: Int
  /// Time since the prompt's reading started.
  public var elapsed: Duration

  /// Creates a progress report.
  public init(total: Int, cached: Int, processed: Int, elapsed: Duration) {
    self.total = total
    self.cached = cached
    self.processed = processed
    self.elapsed = elapsed
  }
}

/// A generated token with its log probability under the model and the most likely alternatives at its place.
public struct TokenLogprob: Sendable, Hashable {
  /// One token and its natural-log probability.
  public struct Entry: Sendable, Hashable {
    /// The model's id for the token.
    public var id: Int32
    /// The bytes the token stands for (part of a character, for some).
    public var bytes: [UInt8]
    /// Its log probability, from the model's logits before any sampling filter.
    public var logprob: Double

    /// Creates an entry.
    public init(id: Int32, bytes: [UInt8], logprob: Double) {
      self.id = id
      self.bytes = bytes
      self.logprob = logprob
    }

    /// The token's text; bytes that are not whole UTF-8 characters come out as replacement characters.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// The token that was generated.
  public var chosen: Entry
  /// The most likely tokens at that place, most likely first.
  public var top: [Entry]

  /// Creates the figures of one token.
  public init(chosen: Entry, top: [Entry]) {
    self.chosen = chosen
    self.top = top
  }
}

extension Duration {
  /// The duration in seconds as a floating-point number.
  public var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  /// The duration in milliseconds as a floating-point number.
  public var milliseconds: Double { seconds * 1000 }
}

extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
  /// A stream fed by `body` on a task of its own: it ends when `body` returns, fails with what `body` throws,
  /// and cancels `body` when its consumer stops listening.
  public static func producing(
    _ body: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void
  ) -> AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        do {
          try await body(continuation)
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
  /// The same elements, read in the consumer's own task (no task in between, so each element costs no extra
  /// hand-over between threads): `observe` hears each element and `end` how the stream ended before the
  /// consumer does — `nil` when it finished, or when the consumer stopped listening first (which stops this
  /// stream too).
  public func observing(
    _ observe: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void
  ) -> AsyncThrowingStream<Element, any Error> {
    let source = StreamReader(makeAsyncIterator(), end: end)
    return AsyncThrowingStream {
      do {
        guard let element = try await source.next() else {
          source.ended(nil)
          return nil
        }
        observe(element)
        return element
      } catch {
        source.ended(error)
        throw error
      }
    }
  }
}

/// An iterator read by one consumer at a time: ``AsyncThrowingStream/observing(_:end:)`` reads it only from the
/// stream's own `next`, which its single consumer awaits in turn.
private final class StreamReader<Element: Sendable>: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<Element, any Error>.Iterator
  private let end: @Sendable ((any Error)?) -> Void
  private var hasEnded = false

  init(_ iterator: AsyncThrowingStream<Element, any Error>.Iterator, end: @escaping @Sendable ((any Error)?) -> Void) {
    self.iterator = iterator
    self.end = end
  }

  func next() async throws -> Element? {
    try await iterator.next()
  }

  func ended(_ error: (any Error)?) {
    guard !hasEnded else { return }
    hasEnded = true
    end(error)
  }

  deinit {
    // The consumer left before the end: dropping the iterator stops the source, and the end is told.
    if !hasEnded { end(nil) }
  }
}
