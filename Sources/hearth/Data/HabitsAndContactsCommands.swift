import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthInterchange

struct HabitsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "habits",
    abstract: "Your habits: list with streaks, add, check in, see stats, remove.",
    subcommands: [List.self, Add.self, Log.self, Stats.self, Remove.self]
  )

  static func line(_ progress: HabitProgress) -> String {
    let stats = progress.stats
    let streak = "streak \(stats.currentStreak) \(stats.streakUnit) (best \(stats.longestStreak))"
    let rate = "\(Int((stats.completionRate * 100).rounded()))% of \(stats.windowDays) days"
    return "\(stats.doneToday ? "[x]" : "[ ]") \(progress.habit.name)  \(progress.habit.schedule)  \(streak)  \(rate)  "
      + Terminal.dim(DataText.shortID(progress.habit.id))
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List habits with today's check-in and streaks.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let overview = try await Engine.openProfile().habits.overview()
        if json { return Terminal.write(try JSONOutput.encode(overview) + "\n") }
        if overview.isEmpty { Terminal.writeError("no habits\n") }
        for progress in overview { Terminal.write(HabitsCommand.line(progress) + "\n") }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a habit.")
    @Argument(help: "Its name.") var name: String
    @Option(name: .long, help: "daily, days of the week (MO,WE,FR) or times per week (3/week).") var schedule = "daily"
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        guard let parsed = Habit.Schedule(parsing: schedule) else {
          throw ValidationError("--schedule is daily, days such as MO,WE,FR, or 1/week…7/week, not \(schedule)")
        }
        let habit = try await Engine.openProfile().habits.create(Habit(name: name, schedule: parsed))
        Terminal.write(
          json
            ? try JSONOutput.encode(habit) + "\n"
            : "added \(habit.name) (\(habit.schedule))  \(DataText.shortID(habit.id))\n")
      }
    }
  }

  struct Log: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check in: record that the habit was done.")
    @Argument(help: "Habit id or unique id prefix.") var id: String
    @Option(name: .long, help: "When (default: now).") var at: DateTimeArgument?
    @Option(name: .long, help: "A note.") var note: String?

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        _ = try engine.habits.log(id, at: at.map { $0.value.instant(in: engine.calendar.timeZone) }, note: note)
        Terminal.write(HabitsCommand.line(try engine.habits.progress(id)) + "\n")
      }
    }
  }

  struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Streaks and completion of one habit.")
    @Argument(help: "Habit id or unique id prefix.") var id: String
    @Option(name: .long, help: "Days the completion rate covers.") var days = 30
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if !(1...3660).contains(days) { throw ValidationError("--days must be 1…3660") }
    }

    func run() async throws {
      try await reportingFailures {
        let progress = try await Engine.openProfile().habits.progress(id, windowDays: days)
        if json { return Terminal.write(try JSONOutput.encode(progress) + "\n") }
        Terminal.write(HabitsCommand.line(progress) + "\n")
        let done = Set(progress.stats.doneDays)
        let today = LocalDate(Date(), in: .current)
        let strip = (0..<min(days, 60)).reversed().map { done.contains(today.adding(days: -$0)) ? "■" : "·" }
        Terminal.write("  \(strip.joined())\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a habit and its check-ins.")
    @Argument(help: "Habit id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        Terminal.write("deleted \(try await Engine.openProfile().habits.delete(id).name)\n")
      }
    }
  }
}

struct ContactsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "contacts",
    abstract: "Your contacts: list, search, show, add, edit, remove, import and export vCard files.",
    subcommands: [List.self, Search.self, Show.self, Add.self, Edit.self, Remove.self, Import.self, Export.self]
  )

  static func line(_ contact: Contact) -> String {
    var parts = [contact.fullName]
    if let organization = contact.organization { parts.append("(\(organization))") }
    parts += contact.phones.prefix(1).map(\.value) + contact.emails.prefix(1).map(\.value)
    return parts.joined(separator: "  ") + "  " + Terminal.dim(DataText.shortID(contact.id))
  }

  static func card(_ contact: Contact) -> String {
    var lines = [contact.fullName]
    if let organization = contact.organization { lines.append("  organisation: \(organization)") }
    for phone in contact.phones { lines.append("  phone\(phone.label.map { " (\($0))" } ?? ""): \(phone.value)") }
    for email in contact.emails { lines.append("  email\(email.label.map { " (\($0))" } ?? ""): \(email.value)") }
    if let birthday = contact.birthday { lines.append("  birthday: \(birthday)") }
    if let notes = contact.notes { lines.append("  notes: \(notes)") }
    lines.append("  id: \(contact.id)")
    return lines.joined(separator: "\n")
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List contacts by name.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let contacts = try await Engine.openProfile().contacts.list()
        if json { return Terminal.write(try JSONOutput.encode(contacts) + "\n") }
        if contacts.isEmpty { Terminal.writeError("no contacts\n") }
        for contact in contacts { Terminal.write(ContactsCommand.line(contact) + "\n") }
      }
    }
  }

  struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find contacts by name or organisation (word starts match; accents ignored).")
    @Argument(help: "Words to find.") var text: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let contacts = try await Engine.openProfile().contacts.search(text)
        if json { return Terminal.write(try JSONOutput.encode(contacts) + "\n") }
        if contacts.isEmpty { Terminal.writeError("no matches\n") }
        for contact in contacts { Terminal.write(ContactsCommand.line(contact) + "\n") }
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a contact's card.")
    @Argument(help: "Contact id or unique id prefix.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let contact = try await Engine.openProfile().contacts.item(id)
        Terminal.write(json ? try JSONOutput.encode(contact) + "\n" : ContactsCommand.card(contact) + "\n")
      }
    }
  }

  /// Fields `add` and `edit` share.
  struct Fields: ParsableArguments {
    @Option(name: .long, help: "A phone number, optionally labelled: 'cell:+33 6 12 34 56 78' (repeatable).")
    var phone: [String] = []
    @Option(name: .long, help: "An e-mail address, optionally labelled: 'work:anna@example.org' (repeatable).")
    var email: [String] = []
    @Option(name: .long, help: "Birthday: 1990-04-12, or 04-12 without the year.") var birthday: String?
    @Option(name: .long, help: "Organisation.") var organization: String?
    @Option(name: .long, help: "Notes.") var notes: String?

    static func labeled(_ text: String) -> LabeledValue {
      // A label is a word before the first colon, unless the value is a tel:/mailto: address.
      let parts = text.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0].allSatisfy(\.isLetter), !["tel", "mailto"].contains(parts[0].lowercased())
      else { return LabeledValue(text) }
      return LabeledValue(String(parts[1]).trimmingCharacters(in: .whitespaces), label: parts[0].lowercased())
    }

    func apply(to contact: inout Contact) throws {
      if !phone.isEmpty { contact.phones = phone.map(Self.labeled) }
      if !email.isEmpty { contact.emails = email.map(Self.labeled) }
      if let birthday {
        // "04-12" is a day without a year (vCard writes it "--04-12", which a command line would take for an option).
        let monthDay = birthday.count == 5 && birthday.dropFirst(2).first == "-"
        guard let parsed = Birthday(parsing: monthDay ? "--" + birthday : birthday) else {
          throw ValidationError("--birthday is 1990-04-12 or 04-12, not \(birthday)")
        }
        contact.birthday = parsed
      }
      if let organization { contact.organization = organization.isEmpty ? nil : organization }
      if let notes { contact.notes = notes.isEmpty ? nil : notes }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a contact.")
    @Argument(help: "Full name.") var name: String
    @OptionGroup var fields: Fields
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let words = name.split(separator: " ").map(String.init)
        var contact = Contact(
          fullName: name, givenName: words.count > 1 ? words.dropLast().joined(separator: " ") : nil,
          familyName: words.count > 1 ? words.last : nil)
        try fields.apply(to: &contact)
        let saved = try await Engine.openProfile().contacts.create(contact)
        Terminal.write(json ? try JSONOutput.encode(saved) + "\n" : "added \(ContactsCommand.line(saved))\n")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Change a contact; fields not given stay (--phone and --email replace the whole list).")
    @Argument(help: "Contact id or unique id prefix.") var id: String
    @Option(name: .long, help: "New full name.") var name: String?
    @OptionGroup var fields: Fields
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let service = try await Engine.openProfile().contacts
        var contact = try service.item(id)
        if let name { contact.fullName = name }
        try fields.apply(to: &contact)
        let saved = try service.update(contact)
        Terminal.write(json ? try JSONOutput.encode(saved) + "\n" : "updated \(ContactsCommand.line(saved))\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a contact.")
    @Argument(help: "Contact id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        Terminal.write("deleted \(try await Engine.openProfile().contacts.delete(id).fullName)\n")
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import a vCard file (3.0 or 4.0); same UIDs are replaced.")
    @Argument(help: "A .vcf file.") var file: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let summary = try await Engine.openProfile().contacts.importFile(try InputFile.read(file))
        Terminal.write(json ? try JSONOutput.encode(summary) + "\n" : "\(summary)\n")
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the contacts as a vCard file.")
    @Option(name: .shortAndLong, help: "File to write (default: standard output).") var output: String?
    @Option(name: .long, help: "vCard version: 4.0 or 3.0.") var vcard = "4.0"

    func run() async throws {
      try await reportingFailures {
        guard let version = VCard.Version(rawValue: vcard) else {
          throw ValidationError("--vcard is 4.0 or 3.0, not \(vcard)")
        }
        try OutputFile.write(try await Engine.openProfile().contacts.exportFile(version: version), to: output)
      }
    }
  }
}
