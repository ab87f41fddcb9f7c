public import Foundation

/// One part of the system prompt, with the most tokens it may take.
public struct PromptSection: Sendable, Hashable {
  /// A name for diagnostics (`identity`, `date`, `calendar`, …).
  public var name: String
  /// The text.
  public var text: String
  /// Upper bound on the section's size in tokens; longer text is cut at a line boundary.
  public var tokenBudget: Int
  /// Whether the content changes from turn to turn; volatile sections go last so that the stable ones
  /// keep their place in the model's cached prefix.
  public var isVolatile: Bool
  /// Whether the text is the same for every user (Hearth's own words, no user data): leading shared
  /// sections may be kept in a cache every profile on the machine reads.
  public var isShared: Bool

  public init(name: String, text: String, tokenBudget: Int, isVolatile: Bool = false, isShared: Bool = false) {
    self.name = name
    self.text = text
    self.tokenBudget = tokenBudget
    self.isVolatile = isVolatile
    self.isShared = isShared
  }
}

/// Assembles the system prompt from sections: stable ones first in the order given, then volatile ones,
/// each cut to its own token budget.
public struct SystemPromptBuilder: Sendable {
  private var sections: [PromptSection] = []

  public init() {}

  /// Adds a section (empty sections are skipped).
  public mutating func add(_ section: PromptSection) {
    guard !section.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
    sections.append(section)
  }

  /// The prompt, with `countTokens` measuring each section against its budget.
  public func build(countTokens: (String) throws -> Int) rethrows -> String {
    try build(ordered, countTokens: countTokens)
  }

  /// The start of ``build(countTokens:)``'s prompt made of its leading shared sections, or `nil` when it
  /// does not begin with one.
  public func sharedPrefix(countTokens: (String) throws -> Int) rethrows -> String? {
    let shared = Array(ordered.prefix { $0.isShared })
    guard !shared.isEmpty else { return nil }
    return try build(shared, countTokens: countTokens)
  }

  private var ordered: [PromptSection] { sections.filter { !$0.isVolatile } + sections.filter(\.isVolatile) }

  private func build(_ sections: [PromptSection], countTokens: (String) throws -> Int) rethrows -> String {
    try sections.map { try fitted($0, countTokens: countTokens) }.filter { !$0.isEmpty }.joined(separator: "\n\n")
  }

  private func fitted(_ section: PromptSection, countTokens: (String) throws -> Int) rethrows -> String {
    if try countTokens(section.text) <= section.tokenBudget { return section.text }
    var lines = section.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while !lines.isEmpty, try countTokens(lines.joined(separator: "\n")) > section.tokenBudget {
      lines.removeLast()
    }
    return lines.joined(separator: "\n")
  }

  /// Who the assistant is.
  public static func identity(name: String = "Hearth") -> PromptSection {
    PromptSection(
      name: "identity",
      text: "You are \(name), a helpful personal assistant running privately on the user's own computer. "
        + "Answer clearly and concisely.",
      tokenBudget: 120, isShared: true)
  }

  /// Today's date and the time zone. Day granularity keeps the prompt byte-stable within a day.
  public static func date(
    _ now: Date, timeZone: TimeZone = .current, locale: Locale = Locale(identifier: "en_US")
  )
    -> PromptSection
  {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.timeZone = timeZone
    formatter.dateFormat = "EEEE, d MMMM yyyy"
    return PromptSection(
      name: "date", text: "Today is \(formatter.string(from: now)) (time zone \(timeZone.identifier)).",
      tokenBudget: 40, isVolatile: true)
  }
}
