import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct RemindersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminders",
    abstract: "Your reminders: list, add, edit, complete, remove, import and export (iCalendar to-dos).",
    subcommands: [List.self, Add.self, Edit.self, Done.self, Remove.self, Import.self, Export.self]
  )

  /// One reminder; a due time kept on another zone's clock is shown on the user's.
  static func line(_ reminder: Reminder) -> String {
    var text = "\(reminder.isCompleted ? "[x]" : "[ ]") \(reminder.title)"
    if let due = reminder.due {
      let shown =
        due.isDateOnly || due.zone == .floating
        ? due.description : LocalDateTime(due.instant(local: .current), in: .current).shortDescription
      text += "  due \(shown)"
    }
    if reminder.priority != .none { text += "  !\(reminder.priority.rawValue)" }
    if reminder.list != Reminder.defaultList { text += "  [\(reminder.list)]" }
    if let repeats = reminder.repeatSummary { text += "  ↻ \(repeats)" }
    return text + "  " + Terminal.dim(DataText.shortID(reminder.id))
  }

  static func due(_ argument: DateTimeArgument) -> ReminderDue {
    argument.isDateOnly ? ReminderDue(date: argument.value.date) : ReminderDue(time: argument.value)
  }

  static func report(_ reminder: Reminder, json: Bool, verb: String) throws {
    Terminal.write(json ? try JSONOutput.encode(reminder) + "\n" : "\(verb) \(line(reminder))\n")
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List reminders: open ones first, by due date.")
    @Option(name: .long, help: "Only this list.") var list: String?
    @Flag(name: .long, help: "Include completed reminders.") var all = false
    @Option(name: .long, help: "Only open reminders due by this date (overdue included), e.g. today.")
    var dueBy: DateTimeArgument?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let service = try await Engine.openProfile().reminders
        var reminders =
          try dueBy.map { try service.due(by: $0.value.date) } ?? service.list(list: list, includeCompleted: all)
        if let list, dueBy != nil { reminders = reminders.filter { $0.list == list } }
        if json { return Terminal.write(try JSONOutput.encode(reminders) + "\n") }
        if reminders.isEmpty { Terminal.writeError("no reminders\n") }
        for reminder in reminders { Terminal.write(RemindersCommand.line(reminder) + "\n") }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a reminder.")
    @Argument(help: "What to do.") var title: String
    @Option(name: .long, help: "Due: a date (2026-12-01, today) or a time (2026-12-01T17:00).") var due:
      DateTimeArgument?
    @Option(name: .long, help: "none, low, medium or high.") var priority: ReminderPriority = .none
    @Option(name: .long, help: "The list (default: Reminders).") var list: String?
    @Option(name: .long, help: "Notes.") var notes: String?
    @OptionGroup(title: "Repeating (done moves it to the next due time)") var repeats: RepeatFields
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if repeats.repeat != nil, due == nil { throw ValidationError("--repeat needs --due to repeat from") }
    }

    func run() async throws {
      try await reportingFailures {
        let reminder = Reminder(
          title: title, notes: notes, due: due.map(RemindersCommand.due), priority: priority,
          list: list ?? Reminder.defaultList, recurrence: repeats.rule)
        try RemindersCommand.report(
          try await Engine.openProfile().reminders.create(reminder), json: json, verb: "added")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change a reminder; fields not given stay.")
    @Argument(help: "Reminder id or unique id prefix.") var id: String
    @Option(name: .long, help: "New title.") var title: String?
    @Option(name: .long, help: "New due date or time.") var due: DateTimeArgument?
    @Flag(name: .long, help: "Remove the due date.") var noDue = false
    @Option(name: .long, help: "none, low, medium or high.") var priority: ReminderPriority?
    @Option(name: .long, help: "Move to this list.") var list: String?
    @Option(name: .long, help: "Notes (empty to clear).") var notes: String?
    @OptionGroup(title: "Repeating") var repeats: RepeatFields
    @Flag(name: .long, help: "Stop repeating.") var noRepeat = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if noDue, due != nil { throw ValidationError("give --due or --no-due, not both") }
      if noRepeat, repeats.repeat != nil { throw ValidationError("give --repeat or --no-repeat, not both") }
      if noDue, repeats.repeat != nil { throw ValidationError("--repeat needs a due date; --no-due removes it") }
    }

    func run() async throws {
      try await reportingFailures {
        let service = try await Engine.openProfile().reminders
        var reminder = try service.item(id)
        if let title { reminder.title = title }
        if let due { reminder.due = RemindersCommand.due(due) }
        if noDue { reminder.due = nil }
        if let priority { reminder.priority = priority }
        if let list { reminder.list = list }
        if let notes { reminder.notes = notes.isEmpty ? nil : notes }
        if let rule = repeats.rule { reminder.recurrence = rule }
        if noRepeat { reminder.recurrence = nil }
        try RemindersCommand.report(try service.update(reminder), json: json, verb: "updated")
      }
    }
  }

  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark a reminder done (or open again with --undo).")
    @Argument(help: "Reminder id or unique id prefix.") var id: String
    @Flag(name: .long, help: "Mark it open again.") var undo = false

    func run() async throws {
      try await reportingFailures {
        let reminder = try await Engine.openProfile().reminders.complete(id, done: !undo)
        Terminal.write(RemindersCommand.line(reminder) + "\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a reminder.")
    @Argument(help: "Reminder id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        Terminal.write("deleted \(try await Engine.openProfile().reminders.delete(id).title)\n")
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import the to-dos (VTODO) of an iCalendar file; same UIDs are replaced.")
    @Argument(help: "An .ics file.") var file: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let summary = try await Engine.openProfile().reminders.importFile(try InputFile.read(file))
        Terminal.write(json ? try JSONOutput.encode(summary) + "\n" : "\(summary)\n")
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the reminders as an iCalendar file of to-dos.")
    @Option(name: .shortAndLong, help: "File to write (default: standard output).") var output: String?

    func run() async throws {
      try await reportingFailures {
        try OutputFile.write(try await Engine.openProfile().reminders.exportFile(), to: output)
      }
    }
  }
}
