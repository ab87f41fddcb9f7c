public import HearthCore

/// How texts are cut into pieces for embedding.
public struct ChunkingOptions: Sendable, Hashable {
  /// Most tokens per piece, headings and the model's special tokens included.
  public var tokenBudget: Int
  /// Tokens of the previous piece repeated at the start of the next when a cut falls inside a section, so a
  /// sentence near the cut keeps its neighbours.
  public var overlap: Int

  /// Creates options; the default suits small sentence encoders such as MiniLM (trained on short passages).
  public init(tokenBudget: Int = 128, overlap: Int = 24) {
    self.tokenBudget = tokenBudget
    self.overlap = overlap
  }
}

/// Cuts a text into pieces that follow its structure: Markdown sections first (each piece knows the headings
/// it sits under), then paragraphs, then sentences, and words only for a sentence longer than a whole piece.
/// Pieces keep the byte offsets of their text in the original, and their ids depend only on their source,
/// headings and text, so re-indexing an edited file keeps the pieces that did not change.
public struct Chunker: Sendable {
  public var options: ChunkingOptions
  /// Tokens the embedding model reads for a text, special tokens included.
  public var countTokens: @Sendable (String) -> Int

  /// Creates a chunker counting with the embedding model's tokenizer.
  public init(options: ChunkingOptions = .init(), countTokens: @escaping @Sendable (String) -> Int) {
    self.options = options
    self.countTokens = countTokens
  }

  /// The pieces of `text`, in order.
  public func chunks(of text: String, sourceID: String) -> [MemoryChunk] {
    let bytes = Array(text.utf8)
    var pieces: [MemoryChunk] = []
    var seen: [String: Int] = [:]
    for section in TextStructure.sections(of: bytes) {
      for (start, end) in pack(section, bytes: bytes) {
        let body = String(decoding: bytes[start..<end], as: UTF8.self)
        let key = "\(sourceID)\u{1f}\(section.heading)\u{1f}\(body)"
        let repeats = seen[key, default: 0]
        seen[key] = repeats + 1
        let id = StableHash.hex(repeats == 0 ? key : "\(key)\u{1f}\(repeats)")
        let chunk = MemoryChunk(
          id: id, sourceID: sourceID, ordinal: pieces.count, heading: section.heading, text: body, start: start,
          end: end, tokenCount: 0)
        pieces.append(with(chunk) { $0.tokenCount = countTokens($0.embeddedText) })
      }
    }
    return pieces
  }

  /// Groups a section's sentences into pieces within the budget, preferring cuts between paragraphs.
  private func pack(_ section: TextStructure.Section, bytes: [UInt8]) -> [(Int, Int)] {
    let headingCost = section.heading.isEmpty ? 0 : countTokens(section.heading) - specialTokens
    let room = max(8, options.tokenBudget - specialTokens - max(0, headingCost))
    var units: [Unit] = []
    for (index, paragraph) in section.paragraphs.enumerated() {
      for sentence in TextStructure.sentences(in: paragraph, bytes: bytes) {
        units += split(sentence, room: room, bytes: bytes).map {
          Unit(start: $0.0, end: $0.1, paragraph: index, tokens: tokens(bytes, $0.0, $0.1))
        }
      }
    }
    var pieces: [(Int, Int)] = []
    var current: [Unit] = []
    var used = 0
    func close() {
      guard let first = current.first, let last = current.last else { return }
      pieces.append((first.start, last.end))
    }
    for unit in units {
      let startsParagraph = current.last.map { $0.paragraph != unit.paragraph } ?? false
      let fits = used + unit.tokens <= room
      // A piece at least half full ends at a paragraph's end rather than cutting the next paragraph.
      let paragraphBreak = startsParagraph && used * 2 >= room && !paragraphFits(unit, in: units, room: room - used)
      if current.isEmpty || (fits && !paragraphBreak) {
        current.append(unit)
        used += unit.tokens
        continue
      }
      close()
      // The overlap repeats the closing sentences of the same paragraph only: a new paragraph starts clean.
      var carried: [Unit] = []
      var carriedTokens = 0
      if !startsParagraph {
        for previous in current.reversed() where previous.paragraph == unit.paragraph {
          guard carriedTokens + previous.tokens <= options.overlap,
            carriedTokens + previous.tokens + unit.tokens <= room
          else { break }
          carried.insert(previous, at: 0)
          carriedTokens += previous.tokens
        }
      }
      current = carried + [unit]
      used = carriedTokens + unit.tokens
    }
    close()
    return pieces
  }

  /// Whether the rest of `unit`'s paragraph fits in `room` tokens.
  private func paragraphFits(_ unit: Unit, in units: [Unit], room: Int) -> Bool {
    units.filter { $0.paragraph == unit.paragraph }.reduce(0) { $0 + $1.tokens } <= room
  }

  /// A sentence longer than `room` tokens, cut between words (or anywhere, for a run without spaces).
  private func split(_ range: (Int, Int), room: Int, bytes: [UInt8]) -> [(Int, Int)] {
    guard tokens(bytes, range.0, range.1) > room else { return [range] }
    var parts: [(Int, Int)] = []
    var start = range.0
    while start < range.1 {
      var end = range.1
      // Halve the span until it fits, then grow it word by word: few tokenizer calls per part.
      while end > start + 1, tokens(bytes, start, end) > room { end = start + (end - start) / 2 }
      var grown = end
      while grown < range.1 {
        let next = TextStructure.nextWordEnd(after: grown, limit: range.1, bytes: bytes)
        guard tokens(bytes, start, next) <= room else { break }
        grown = next
      }
      end = TextStructure.backToBoundary(grown, floor: start, limit: range.1, bytes: bytes)
      parts.append((start, end))
      start = TextStructure.skipSpaces(from: end, limit: range.1, bytes: bytes)
    }
    return parts
  }

  private func tokens(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
    countTokens(String(decoding: bytes[start..<end], as: UTF8.self)) - specialTokens
  }

  /// What the model adds around every text (such as BERT's CLS and SEP).
  private var specialTokens: Int { max(0, countTokens("")) }

  private struct Unit {
    var start: Int
    var end: Int
    var paragraph: Int
    var tokens: Int
  }
}

private func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
  var value = value
  change(&value)
  return value
}
