import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct AutomationsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "automations",
    abstract: "Prompts Hearth answers on a schedule, each into a chat of its own, with a notice when done.",
    discussion: """
      `hearth serve` runs them when their time comes (between your own requests). What an answer proposes \
      waits for your confirmation, since no one asked at that moment. Schedules: fri 17:00, daily 08:00, \
      weekdays 9am, mon,wed 18:30, every 2h, hourly, or a cron line (0 17 * * 5).
      """,
    subcommands: [List.self, Add.self, Remove.self, Run.self], defaultSubcommand: List.self)

  static func line(_ automation: Automation, zone: TimeZone) -> String {
    let next = automation.nextRunAt.map { "next \(LocalDateTime($0, in: zone).shortDescription)" } ?? "no next run"
    return "\(automation.id.prefix(8))  “\(automation.prompt)”  \(automation.schedule)  (\(next))"
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The automations, the next to run first.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let automations = try engine.automations.list()
        if json { return Terminal.write(try JSONOutput.encode(automations) + "\n") }
        if automations.isEmpty { Terminal.writeError("no automations\n") }
        for automation in automations {
          Terminal.write(AutomationsCommand.line(automation, zone: engine.calendar.timeZone) + "\n")
        }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add one.", discussion: "Example: hearth automations add \"Summarise my week\" --every \"fri 17:00\"")
    @Argument(help: "The prompt.") var prompt: String
    @Option(name: .long, help: "When: fri 17:00, daily 08:00, weekdays 9am, every 2h, 0 17 * * 5, …") var every: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let automation = try engine.automations.add(prompt: prompt, every: every)
        Terminal.write(
          json
            ? try JSONOutput.encode(automation) + "\n"
            : "added " + AutomationsCommand.line(automation, zone: engine.calendar.timeZone) + "\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove one.")
    @Argument(help: "Automation id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        let removed = try await Engine.openProfile().automations.remove(id)
        Terminal.write("removed “\(removed.prompt)”\n")
      }
    }
  }

  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run-now", abstract: "Run one now, here, into a new chat (its schedule is unchanged).")
    @Argument(help: "Automation id or unique id prefix.") var id: String
    @OptionGroup var modelOptions: ModelOptionGroup
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openForChat(modelOptions)
        let automation = try engine.automations.automation(id)
        let run = try await engine.runAutomation(automation)
        if json { return Terminal.write(try JSONOutput.encode(AutomationRunOutput(run)) + "\n") }
        if let failure = run.failure { throw AutomationRunFailed(message: failure) }
        Terminal.write((run.answer?.content ?? "") + "\n")
        for record in run.actions { Terminal.write(TurnPrinter.card(record) + "\n") }
        Terminal.write(Terminal.dim("(chat \(run.session.uuidString.prefix(8)))") + "\n")
      }
    }
  }
}

struct AutomationRunOutput: Encodable {
  var session: UUID
  var answer: String?
  var actions: [ActionRecord]
  var failure: String?

  init(_ run: AutomationRun) {
    session = run.session
    answer = run.answer?.content
    actions = run.actions
    failure = run.failure
  }
}

struct AutomationRunFailed: Error, CustomStringConvertible {
  var message: String
  var description: String { "the automation could not run: \(message)" }
}
