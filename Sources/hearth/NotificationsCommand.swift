public import ArgumentParser
import Foundation
import HearthCore
public import HearthEngine

struct NotificationsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notifications",
    abstract: "What Hearth tells you unasked: reminders coming due, events about to start, habits not yet done.",
    discussion: """
      Notices are recorded as they fire while `hearth serve` runs (and whenever `hearth chat`, the web app or \
      this command looks), so those that fired while nothing was open are listed here. Each can be done, \
      snoozed or dismissed.
      """,
    subcommands: [List.self, Done.self, Snooze.self, Dismiss.self], defaultSubcommand: List.self)

  static func line(_ notice: Notice) -> String {
    let id = Terminal.dim("  (\(notice.id))")
    return "🔔 \(notice.title) — \(notice.detail)\(id)"
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The notices that stand (fired and not dealt with).")
    @Flag(name: .long, help: "Also the recent ones already dealt with.") var all = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let notices = try await Engine.openProfile().notices
        let standing = try notices.check()
        let shown = all ? try notices.recent() : standing
        if json { return Terminal.write(try JSONOutput.encode(shown) + "\n") }
        if shown.isEmpty { Terminal.writeError("no notices\n") }
        for notice in shown { Terminal.write(NotificationsCommand.line(notice) + "\n") }
      }
    }
  }

  static func settle(_ id: String, json: Bool, _ change: (NoticeService, String) throws -> Notice) async throws {
    try await reportingFailures {
      let notice = try change(try await Engine.openProfile().notices, id)
      Terminal.write(json ? try JSONOutput.encode(notice) + "\n" : "\(notice.title): dealt with\n")
    }
  }

  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Do what it is about: complete the reminder, check the habit in (an event's is only dismissed).")
    @Argument(help: "The notice's id.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await NotificationsCommand.settle(id, json: json) { try $0.done($1) } }
  }

  struct Snooze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show it again later; a reminder's due time moves to then.")
    @Argument(help: "The notice's id.") var id: String
    @Option(name: .customLong("for"), help: "10m, 1h or tomorrow.") var length: HearthEngine.Snooze = .tenMinutes
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await NotificationsCommand.settle(id, json: json) { try $0.snooze($1, length) } }
  }

  struct Dismiss: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Set it aside without doing anything.")
    @Argument(help: "The notice's id.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await NotificationsCommand.settle(id, json: json) { try $0.dismiss($1) } }
  }
}

extension HearthEngine.Snooze: ExpressibleByArgument {}
