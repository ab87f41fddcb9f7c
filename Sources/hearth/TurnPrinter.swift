import Foundation
import HearthCore
import HearthEngine

/// Prints a turn's events as they arrive and keeps what the caller needs afterwards: the final message, its
/// actions and sources, or why the turn could not run.
struct TurnPrinter {
  /// Prints nothing (for `--json`); only keeps the outcome.
  var quiet = false
  private(set) var message: StoredMessage?
  private(set) var actions: [ActionRecord] = []
  private(set) var sources: [Citation] = []
  /// Why the turn could not run, when it could not.
  private(set) var failure: (any Error)?
  private var blocks = ActionBlockFilter()
  private var thinking = false

  init(quiet: Bool = false) { self.quiet = quiet }

  /// Runs `request` through the engine, printing it as it comes.
  static func run(_ request: TurnRequest, on engine: Engine, quiet: Bool = false) async throws -> TurnPrinter {
    var printer = TurnPrinter(quiet: quiet)
    try await engine.runTurn(request) { printer.show($0) }
    return printer
  }

  mutating func show(_ event: TurnEvent) {
    switch event {
    case .loading(let model):
      if !quiet { Terminal.writeError(Terminal.dim("(loading \(model)…)") + "\n") }
    case .queued(let position):
      if !quiet { Terminal.writeError(Terminal.dim("(waiting for the model: \(position) ahead)") + "\n") }
    case .ready: break
    case .failed(let error): failure = error
    case .chat(let event): show(event)
    }
  }

  private mutating func show(_ event: ChatEvent) {
    switch event {
    case .started: break
    case .sources(let cited): sources = cited
    case .preparing(let words):
      if !quiet { Terminal.writeError(Terminal.dim("(\(words.replacingOccurrences(of: "…", with: "")))") + "\n") }
    case .trimmed(let dropped):
      if !quiet {
        Terminal.writeError(Terminal.dim("(conversation trimmed: \(dropped) earlier messages summarised)") + "\n")
      }
    case .thinking(let text):
      guard !quiet else { return }
      if !thinking { Terminal.write(Terminal.dim("thinking: ")) }
      thinking = true
      Terminal.write(Terminal.dim(text))
    case .answer(let text):
      guard !quiet else { return }
      if thinking {
        Terminal.write("\n")
        thinking = false
      }
      Terminal.write(blocks.feed(text))
    case .replaced(let text, let reason):
      guard !quiet else { return }
      blocks = ActionBlockFilter()
      let why =
        switch reason {
        case .notInTheData: "(that answer stated what your data does not hold; instead:)"
        case .repeating: "(that answer began repeating itself; said once:)"
        }
      Terminal.write("\n" + Terminal.dim(why) + "\n" + ActionBlockFilter.shown(text))
    case .actions(let records):
      actions = records
      if !quiet { Terminal.write(blocks.finish() + "\n" + records.map(Self.card).joined(separator: "\n")) }
    case .finished(let finished):
      if !quiet {
        Terminal.write(blocks.finish())
        if !sources.isEmpty { Terminal.write("\n" + Terminal.dim(Self.sourcesLine(sources))) }
      }
      message = finished
    }
  }

  /// The sources an answer drew on, as one line: `Sources: [1] Boiler (note) · [2] manual.pdf › Service`.
  static func sourcesLine(_ sources: [Citation]) -> String {
    "Sources: "
      + sources.map { citation in
        let place = citation.heading.isEmpty || citation.heading == citation.title ? "" : " › \(citation.heading)"
        return "[\(citation.number)] \(citation.title)\(place) (\(citation.collection.singular))"
      }.joined(separator: " · ")
  }

  /// One action as a line: what it did or will do, and what the user can say to it.
  static func card(_ record: ActionRecord) -> String {
    let id = String(record.id.uuidString.prefix(8))
    let asked = record.source.map { " · asked for by \($0)" } ?? ""
    switch record.state {
    case .created: return "  ✓ \(record.cardLine)  " + Terminal.dim("(/undo \(id))\(asked)")
    case .pending:
      return "  ? \(record.summary) — confirm? (y/n)  "
        + Terminal.dim(id + asked + (record.reason.map { " · waits: \($0)" } ?? ""))
    case .answered:
      return "  ⓘ \(record.summary)\n"
        + (record.result ?? "").split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
    case .updated, .deleted: return "  ✓ \(record.cardLine)  " + Terminal.dim("(/undo \(id))")
    case .undone, .restored, .cancelled:
      return "  – \(record.summary) (\(record.state.rawValue)\(record.reason.map { ": \($0)" } ?? ""))"
    case .failed, .invalid: return "  ✗ \(record.summary)\(record.reason.map { ": \($0)" } ?? "")"
    }
  }

  /// The conflict card's choices under an action's line: what it overlaps, and the free times to move it to.
  static func conflictLines(_ choices: ConflictChoices, of record: ActionRecord) -> String {
    let overlaps = choices.overlaps.map { overlap in
      let day = "\(overlap.start.date.weekday.abbreviation) \(overlap.start.date)"
      let when =
        overlap.allDay
        ? "\(day), all day"
        : overlap.start.date == overlap.end.date
          ? "\(day) \(overlap.start.clock)–\(overlap.end.clock)"
          : "\(day) \(overlap.start.clock) – \(overlap.end.date) \(overlap.end.clock)"
      return "“\(overlap.title)” (\(when))"
    }
    let cancel = record.state == .pending ? "n to cancel it" : "/undo to cancel it"
    let keep = record.state == .pending ? "y to keep it as asked" : "keep it as it is"
    var lines = ["  ! It overlaps \(overlaps.joined(separator: ", ")): \(keep), \(cancel)"]
    if choices.slots.isEmpty {
      lines[0] += "; no free time this week to move it to."
    } else {
      lines[0] += ", or /reschedule N to move it to a free time:"
      lines += choices.slots.enumerated().map { index, slot in
        "    \(index + 1)) \(slot.start.date.weekday.abbreviation) \(slot.start.date) \(slot.start.clock)–\(slot.end.clock)"
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A notice for an answer that did not end normally.
  static func notice(for message: StoredMessage) -> String? {
    switch message.state {
    case .failed: "[failed: \(message.error ?? "unknown error")]"
    case .cancelled: "[stopped]"
    case .timedOut: "[stopped: time limit reached; the partial answer was kept]"
    case .interrupted: "[interrupted]"
    case .complete, .generating: message.stopReason.flatMap { $0.notice }
    }
  }
}
