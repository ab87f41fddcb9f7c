/// The structure the chunker follows, found in a text's UTF-8 bytes: Markdown sections (with their heading
/// path), paragraphs (blank-line separated; a fenced code block is one paragraph), lines and sentences.
enum TextStructure {
  struct Section {
    /// The headings above, outermost first, joined with " › ".
    var heading: String
    /// Byte ranges of the paragraphs.
    var paragraphs: [(Int, Int)]
  }

  static func sections(of bytes: [UInt8]) -> [Section] {
    var sections: [Section] = []
    var headings: [(level: Int, title: String)] = []
    var current = Section(heading: "", paragraphs: [])
    var paragraphStart: Int?
    var paragraphEnd = 0
    var inFence = false

    func endParagraph() {
      if let start = paragraphStart { current.paragraphs.append((start, paragraphEnd)) }
      paragraphStart = nil
    }
    func startSection() {
      endParagraph()
      if !current.paragraphs.isEmpty { sections.append(current) }
      current = Section(heading: headings.map(\.title).joined(separator: " › "), paragraphs: [])
    }

    for (start, end) in lines(of: bytes) {
      let content = trimmed(bytes, start, end)
      let isFence = content.1 - content.0 >= 3 && bytes[content.0..<content.0 + 3].elementsEqual("```".utf8)
      if inFence {
        paragraphEnd = end
        if isFence { inFence = false }
        continue
      }
      if isFence {
        if paragraphStart == nil { paragraphStart = content.0 }
        paragraphEnd = end
        inFence = true
        continue
      }
      if content.0 == content.1 {
        endParagraph()
        continue
      }
      if let (level, title) = heading(bytes, content.0, content.1) {
        headings.removeAll { $0.level >= level }
        headings.append((level, title))
        startSection()
        continue
      }
      if paragraphStart == nil { paragraphStart = content.0 }
      paragraphEnd = content.1
    }
    endParagraph()
    if !current.paragraphs.isEmpty { sections.append(current) }
    return sections
  }

  /// Sentences of a paragraph: each line of a list or a table on its own, prose cut after `.`, `!` or `?`
  /// followed by a space. A fenced code block stays whole.
  static func sentences(in paragraph: (Int, Int), bytes: [UInt8]) -> [(Int, Int)] {
    if bytes[paragraph.0...].starts(with: "```".utf8) { return [paragraph] }
    var result: [(Int, Int)] = []
    for line in lines(of: bytes, in: paragraph) {
      let (start, end) = trimmed(bytes, line.0, line.1)
      guard start < end else { continue }
      var sentenceStart = start
      var index = start
      while index < end - 1 {
        let byte = bytes[index]
        if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?"),
          bytes[index + 1] == UInt8(ascii: " ")
        {
          result.append((sentenceStart, index + 1))
          sentenceStart = skipSpaces(from: index + 1, limit: end, bytes: bytes)
          index = sentenceStart
          continue
        }
        index += 1
      }
      if sentenceStart < end { result.append((sentenceStart, end)) }
    }
    return result
  }

  /// The end of the word after `position` (and the spaces before it).
  static func nextWordEnd(after position: Int, limit: Int, bytes: [UInt8]) -> Int {
    var index = skipSpaces(from: position, limit: limit, bytes: bytes)
    while index < limit, !isSpace(bytes[index]) { index += 1 }
    return max(index, min(position + 1, limit))
  }

  /// `position` moved back to the end of a word when one ends after `floor`, else to a character boundary.
  static func backToBoundary(_ position: Int, floor: Int, limit: Int, bytes: [UInt8]) -> Int {
    if position >= limit { return limit }
    if isSpace(bytes[position]) { return position }
    var index = position
    while index > floor, !isSpace(bytes[index - 1]) { index -= 1 }
    if index > floor { return index - 1 }
    // One unbroken run longer than a piece: cut it, but never inside a character.
    var cut = max(position, floor + 1)
    while cut < limit, bytes[cut] & 0xC0 == 0x80 { cut += 1 }
    return cut
  }

  static func skipSpaces(from position: Int, limit: Int, bytes: [UInt8]) -> Int {
    var index = position
    while index < limit, isSpace(bytes[index]) { index += 1 }
    return index
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func lines(of bytes: [UInt8], in range: (Int, Int)? = nil) -> [(Int, Int)] {
    let (from, to) = range ?? (0, bytes.count)
    var result: [(Int, Int)] = []
    var start = from
    for index in from..<to where bytes[index] == 0x0A {
      result.append((start, index))
      start = index + 1
    }
    if start < to { result.append((start, to)) }
    return result
  }

  private static func trimmed(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (Int, Int) {
    var start = start
    var end = end
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return (start, end)
  }

  /// `# Title` … `###### Title`: the level and the title.
  private static func heading(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (Int, String)? {
    var level = 0
    while start + level < end, bytes[start + level] == UInt8(ascii: "#") { level += 1 }
    guard (1...6).contains(level), start + level < end, bytes[start + level] == 0x20 else { return nil }
    var titleEnd = end
    while titleEnd > start + level, bytes[titleEnd - 1] == UInt8(ascii: "#") || isSpace(bytes[titleEnd - 1]) {
      titleEnd -= 1
    }
    let title = String(decoding: bytes[(start + level + 1)..<titleEnd], as: UTF8.self)
    return title.isEmpty ? nil : (level, title)
  }
}
