import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

/// `hearth memory …`: the facts Hearth keeps about the user, to see, add, change and forget.
struct MemoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "memory",
    abstract: "What Hearth remembers about you: list, add, change, pin and forget facts.",
    subcommands: [Facts.self, Remember.self, Edit.self, Forget.self]
  )

  static func line(_ fact: Fact, today: LocalDate) -> String {
    var text = "\(fact.isPinned ? "📌 " : "")\(fact.text)"
    if let expires = fact.expires { text += fact.holds(on: today) ? "  (until \(expires))" : "  (ended \(expires))" }
    return text + "  " + Terminal.dim("\(DataText.shortID(fact.id)) · \(fact.origin) · \(day(fact.createdAt))")
  }

  static func day(_ date: Date) -> String { LocalDate(date, in: .current).description }

  /// A day on the command line: `2026-12-24`, `today` or `tomorrow`.
  struct Day: ExpressibleByArgument, Sendable {
    let value: LocalDate
    init?(argument: String) {
      guard let parsed = DateTimeArgument(argument: argument), parsed.isDateOnly else { return nil }
      value = parsed.value.date
    }
  }

  struct Facts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the facts kept, pinned first, newest first, with where each came from.")
    @Flag(name: .long, help: "Also the earlier facts a later one replaced.") var history = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let facts = try await Engine.openProfile().facts.list(includingHistory: history)
        if json { return Terminal.write(try JSONOutput.encode(facts) + "\n") }
        if facts.isEmpty { Terminal.writeError("no facts\n") }
        let today = LocalDate(Date(), in: .current)
        for fact in facts { Terminal.write(MemoryCommand.line(fact, today: today) + "\n") }
      }
    }
  }

  struct Remember: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Keep a fact, in your words; one about the same thing as a fact kept takes its place.")
    @Argument(help: "The fact (\"I'm allergic to nuts\").") var text: String
    @Option(name: .long, help: "Its last day (YYYY-MM-DD).") var until: Day?
    @Flag(name: .long, help: "Pin it: it is in every prompt.") var pin = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let (fact, replacing) = try await Engine.openProfile().facts.remember(text, until: until?.value, pinned: pin)
        if json { return Terminal.write(try JSONOutput.encode(fact) + "\n") }
        Terminal.write(
          "remembered \(MemoryCommand.line(fact, today: LocalDate(Date(), in: .current)))\n"
            + (replacing.map { "in place of “\($0.text)”\n" } ?? ""))
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change a fact; what is not given stays.")
    @Argument(help: "Fact id or unique id prefix.") var id: String
    @Option(name: .long, help: "Its new words.") var text: String?
    @Option(name: .long, help: "Its last day (YYYY-MM-DD).") var until: Day?
    @Flag(name: .long, help: "Clear its last day.") var noUntil = false
    @Flag(name: .long, inversion: .prefixedNo, help: "Pin or unpin it.") var pin: Bool?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if until != nil, noUntil { throw ValidationError("give --until or --no-until, not both") }
      if text == nil, until == nil, !noUntil, pin == nil {
        throw ValidationError("nothing to change: give --text, --until, --no-until, --pin or --no-pin")
      }
    }

    func run() async throws {
      try await reportingFailures {
        let expiry: LocalDate?? = noUntil ? .some(nil) : until.map { .some($0.value) }
        let fact = try await Engine.openProfile().facts.edit(id, text: text, until: expiry, pinned: pin)
        if json { return Terminal.write(try JSONOutput.encode(fact) + "\n") }
        Terminal.write("changed \(MemoryCommand.line(fact, today: LocalDate(Date(), in: .current)))\n")
      }
    }
  }

  struct Forget: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget a fact, with the earlier ones it replaced; it leaves the memory's index at once.")
    @Argument(help: "Fact id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        let fact = try await Engine.openProfile().memory.forget(fact: id)
        Terminal.write("forgot “\(fact.text)”\n")
      }
    }
  }
}
