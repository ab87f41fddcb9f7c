import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct AccountsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accounts",
    abstract: "Calendars, task lists and address books on your own servers (CalDAV, CardDAV), synced both ways.",
    discussion: """
      Add an account with an app password (iCloud, Fastmail and Nextcloud make them in their settings): \
      hearth accounts add caldav https://caldav.fastmail.com --user you@fastmail.com --password-file ~/pw. \
      The password is kept in the profile, readable by you only. `hearth serve` syncs every few minutes; \
      `hearth sync` does it once.
      """,
    subcommands: [List.self, Add.self, Remove.self, Sync.self, Status.self, Collection.self],
    defaultSubcommand: List.self)

  static func collectionLine(_ collection: SyncCollection) -> String {
    let place = collection.content == .contacts ? "contacts" : "“\(collection.localName)”"
    let marks = [collection.isEnabled ? nil : "off", collection.isDefault ? "new items go here" : nil]
      .compactMap { $0 }
    let kind = ["events": "calendar", "todos": "task list", "contacts": "address book"][collection.content.rawValue]
    return "  \(collection.displayName) (\(kind ?? "")) → \(place)"
      + (marks.isEmpty ? "" : "  [\(marks.joined(separator: ", "))]")
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The accounts and what each syncs.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let listed = try await Engine.openProfile().accounts.list()
        if json { return Terminal.write(try JSONOutput.encode(listed) + "\n") }
        if listed.isEmpty { Terminal.writeError("no accounts (add one with hearth accounts add)\n") }
        for entry in listed {
          Terminal.write("\(entry.account.name)  \(entry.account.service.rawValue)  \(entry.account.username)\n")
          for collection in entry.collections { Terminal.write(AccountsCommand.collectionLine(collection) + "\n") }
        }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add an account, after checking its password and finding its collections.")
    @Argument(help: "caldav (calendars and task lists) or carddav (address books).") var service: String
    @Argument(help: "The server's URL (https://…); the collections are found from it.") var url: String
    @Option(name: .long, help: "The user name.") var user: String?
    @Option(name: .long, help: "A file whose first line is the (app) password; else HEARTH_ACCOUNT_PASSWORD.")
    var passwordFile: String?
    @Option(name: .long, help: "The account's name here (default: the server's host).") var name: String?
    @Flag(
      name: .long,
      help: "Allow plain http to another machine: the password then crosses the network unencrypted.")
    var allowPlainHttp = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      guard Account.Service(rawValue: service.lowercased()) != nil else {
        throw ValidationError("service: \(service) is not caldav or carddav")
      }
    }

    func run() async throws {
      try await reportingFailures {
        let environment = ProcessInfo.processInfo.environment
        guard let user = user ?? environment["HEARTH_ACCOUNT_USER"], !user.isEmpty else {
          throw ValidationError("--user is missing (or HEARTH_ACCOUNT_USER)")
        }
        let password: String
        if let passwordFile {
          password = try AccountService.password(fromFile: passwordFile)
        } else if let given = environment["HEARTH_ACCOUNT_PASSWORD"], !given.isEmpty {
          password = given
        } else {
          throw ValidationError("--password-file is missing (or HEARTH_ACCOUNT_PASSWORD)")
        }
        let engine = try await Engine.openProfile()
        let listed = try await engine.accounts.add(
          name: name ?? URL(string: url)?.host ?? url, service: Account.Service(rawValue: service.lowercased())!,
          url: url, username: user, password: password, allowPlainHTTP: allowPlainHttp)
        if json { return Terminal.write(try JSONOutput.encode(listed) + "\n") }
        Terminal.write("added \(listed.account.name): \(listed.collections.count) collections\n")
        for collection in listed.collections { Terminal.write(AccountsCommand.collectionLine(collection) + "\n") }
        Terminal.write("run hearth sync to bring them in\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Remove an account and its password; its items stay here as local ones.")
    @Argument(help: "The account's name.") var name: String

    func run() async throws {
      try await reportingFailures {
        let removed = try await Engine.openProfile().accounts.remove(named: name)
        Terminal.write("removed \(removed.name); its items stay in Hearth, no longer synced\n")
      }
    }
  }

  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sync every account now (or the one named).")
    @Argument(help: "The account's name.") var name: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws { try await AccountsCommand.sync(name, json: json) }
  }

  static func sync(_ name: String?, json: Bool) async throws {
    try await reportingFailures {
      let results = try await Engine.openProfile().accounts.sync(named: name)
      if json { return Terminal.write(try JSONOutput.encode(results) + "\n") }
      if results.isEmpty { Terminal.writeError("no accounts to sync (add one with hearth accounts add)\n") }
      for result in results {
        if let error = result.error {
          Terminal.writeError("\(result.account): \(error)\n")
          continue
        }
        Terminal.write("\(result.account):\n")
        for report in result.reports { Terminal.write("  " + report.summary + "\n") }
      }
      if results.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "When each account last synced, and how it went.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let listed = try engine.accounts.list()
        let next = try engine.accounts.nextSync()
        if json {
          let statuses = try listed.map {
            AccountStatus(
              account: $0.account, waiting: try engine.accounts.waitingChanges(of: $0.account),
              nextSyncAt: next.date, syncing: next == .running)
          }
          return Terminal.write(try JSONOutput.encode(statuses) + "\n")
        }
        if listed.isEmpty { Terminal.writeError("no accounts\n") }
        let time = { (date: Date) in LocalDateTime(date, in: engine.calendar.timeZone).shortDescription }
        for entry in listed {
          let account = entry.account
          let when = account.lastSyncAt.map(time)
          let waiting = try engine.accounts.waitingChanges(of: account)
          let state = account.lastError.map { "failed: \($0)" } ?? (when == nil ? "never synced" : "in step")
          let listing = entry.collections.filter(\.tokenMissedChanges).map(\.displayName)
          let note =
            listing.isEmpty
            ? ""
            : "; \(listing.joined(separator: ", ")) synced by listing every item (the server's token missed changes)"
          Terminal.write(
            "\(account.name): \(when.map { "last sync \($0), " } ?? "")\(state); "
              + "\(next.describe(time, now: Date())); "
              + "\(waiting) local change\(waiting == 1 ? "" : "s") waiting\(note)\n")
        }
      }
    }

    /// One account in `--json`: the account, the changes waiting here and the next sync.
    struct AccountStatus: Encodable {
      var account: Account
      var waiting: Int
      var nextSyncAt: Date?
      var syncing: Bool
    }
  }

  struct Collection: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Turn a collection's sync on or off, or make it where new items of its kind go.")
    @Argument(help: "The account's name.") var account: String
    @Argument(help: "The collection's name (as hearth accounts list shows it).") var collection: String
    @Flag(name: .long, help: "Sync it.") var on = false
    @Flag(name: .long, help: "Stop syncing it (its items stay).") var off = false
    @Flag(name: .customLong("default"), help: "New items of its kind go here.") var makeDefault = false

    func validate() throws {
      if on && off { throw ValidationError("--on and --off: give one") }
      if !on && !off && !makeDefault { throw ValidationError("give --on, --off or --default") }
    }

    func run() async throws {
      try await reportingFailures {
        let changed = try await Engine.openProfile().accounts.setCollection(
          account: account, collection: collection, enabled: on ? true : off ? false : nil,
          isDefault: makeDefault ? true : nil)
        for collection in changed { Terminal.write(AccountsCommand.collectionLine(collection) + "\n") }
      }
    }
  }
}

/// `hearth sync`: every account, once.
struct SyncCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync", abstract: "Sync every account now (the same as hearth accounts sync).")
  @Argument(help: "The account's name.") var name: String?
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws { try await AccountsCommand.sync(name, json: json) }
}
