import ArgumentParser
import Foundation
import HearthEngine

struct BackupCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Back the whole profile up into one compressed (optionally encrypted) file, check one, list them.",
    discussion: """
      A backup holds the database (chats, calendar, reminders, notes, habits, contacts, facts, memory, settings, \
      prompts, MCP servers, accounts) and the documents added to the memory. App passwords and the server's keys, \
      the chats' model states and the models only when asked. It can be taken while hearth serve runs. Restore \
      with hearth restore.
      """,
    subcommands: [Create.self, Verify.self, List.self], defaultSubcommand: Create.self)

  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Take a backup now.")
    @Option(name: .long, help: "The folder to write it into (default: backups in the profile folder).")
    var to: String?
    @Option(name: .long, help: "Encrypt it with the passphrase on the first line of this file.")
    var passphraseFile: String?
    @Flag(
      name: .long,
      help:
        "Include the accounts' app passwords and the server's keys for HTTPS and notifications (needs --passphrase-file)."
    )
    var withPasswords = false
    @Flag(name: .long, help: "Include the chats' evaluated model states (large; rebuilt when missing).")
    var withStates = false
    @Flag(name: .long, help: "Include the installed models (large; they can be downloaded again).")
    var withModels = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let paths = HearthPaths()
        let folder = to.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
        var options = BackupOptions(folder: folder ?? ProfileBackup.defaultFolder(of: paths))
        options.passphrase = try passphraseFile.map(ProfileBackup.passphrase(fromFile:))
        options.includesPasswords = withPasswords
        options.includesConversationStates = withStates
        options.includesModels = withModels
        let summary = try ProfileBackup(paths: paths).create(options)
        if json { return Terminal.write(try JSONOutput.encode(summary) + "\n") }
        Terminal.write("backed up to \(summary.file)\n" + BackupCommand.lines(summary))
      }
    }
  }

  struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Read a backup through and check it (every checksum, the database in full) without restoring it.")
    @Argument(help: "The backup file.") var file: String
    @Option(name: .long, help: "The file whose first line is its passphrase, if it is encrypted.")
    var passphraseFile: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let passphrase = try passphraseFile.map(ProfileBackup.passphrase(fromFile:))
        let summary = try ProfileBackup(paths: HearthPaths()).verify(
          URL(fileURLWithPath: (file as NSString).expandingTildeInPath), passphrase: passphrase)
        if json { return Terminal.write(try JSONOutput.encode(summary) + "\n") }
        Terminal.write("\(summary.file) is sound\n" + BackupCommand.lines(summary))
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the backups in a folder.")
    @Option(name: .customLong("in"), help: "The folder (default: backups in the profile folder).")
    var folder: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let paths = HearthPaths()
        let chosen = folder.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
        let found = ProfileBackup(paths: paths).list(in: chosen ?? ProfileBackup.defaultFolder(of: paths))
        if json { return Terminal.write(try JSONOutput.encode(found) + "\n") }
        if found.isEmpty { return Terminal.write("no backups\n") }
        for summary in found {
          let date = summary.created.formatted(date: .abbreviated, time: .shortened)
          Terminal.write(
            "\(date)  \(BackupCommand.size(summary.bytes))\(summary.encrypted ? "  encrypted" : "")  \(summary.file)\n")
        }
      }
    }
  }

  static func lines(_ summary: BackupSummary) -> String {
    var lines = [
      "  taken \(summary.created.formatted(date: .abbreviated, time: .standard)), \(size(summary.bytes))"
        + (summary.encrypted ? ", encrypted" : ", not encrypted")
    ]
    if let items = summary.items {
      let order = [
        "chats", "messages", "events", "reminders", "notes", "habits", "contacts", "facts", "memory_sources",
        "accounts",
      ]
      let held = order.compactMap { kind in
        items[kind].flatMap { $0 > 0 ? "\($0) \(kind.replacingOccurrences(of: "_", with: " "))" : nil }
      }
      lines.append("  " + (held.isEmpty ? "no chats or items" : held.joined(separator: ", ")))
    }
    if let files = summary.files, let bytes = summary.dataBytes {
      lines.append("  \(files) files, \(size(bytes)) before compression")
    }
    if let includes = summary.includes, !includes.isEmpty {
      lines.append("  with " + includes.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func size(_ bytes: UInt64) -> String {
    ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
  }
}

struct RestoreCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Restore a backup into the profile, after checking all of it; the current profile is kept aside.",
    discussion: """
      Stop hearth serve first. Into a profile that holds data only with --replace: its files are moved into \
      before-restore-… in the profile folder, not deleted.
      """)
  @Argument(help: "The backup file.") var file: String
  @Option(name: .long, help: "The file whose first line is its passphrase, if it is encrypted.")
  var passphraseFile: String?
  @Flag(name: .long, help: "Restore over a profile that holds data (kept aside first).") var replace = false
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let passphrase = try passphraseFile.map(ProfileBackup.passphrase(fromFile:))
      let report = try ProfileBackup(paths: HearthPaths()).restore(
        URL(fileURLWithPath: (file as NSString).expandingTildeInPath), passphrase: passphrase, replacing: replace)
      if json { return Terminal.write(try JSONOutput.encode(report) + "\n") }
      Terminal.write("restored \(report.backup.file)\n" + BackupCommand.lines(report.backup))
      if let aside = report.keptAside { Terminal.write("the profile as it was is kept in \(aside)\n") }
      if !report.accountsWithoutPassword.isEmpty {
        Terminal.write(
          "give the app password again (hearth accounts) for: \(report.accountsWithoutPassword.joined(separator: ", "))\n"
        )
      }
      if !report.devicesLeftRevoked.isEmpty {
        Terminal.write(
          "paired devices kept as this profile had them; still revoked: "
            + "\(report.devicesLeftRevoked.joined(separator: ", "))\n")
      }
      if !report.devicesFromBackup.isEmpty {
        Terminal.write(
          "paired devices that came back with the backup (hearth devices revoke any you no longer trust): "
            + "\(report.devicesFromBackup.joined(separator: ", "))\n")
      }
    }
  }
}
