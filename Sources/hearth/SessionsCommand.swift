public import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthStore

struct SessionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract: "List, search, export and manage saved conversations.",
    subcommands: [
      List.self, Show.self, Search.self, Rename.self, Pin.self, Unpin.self, Archive.self, Unarchive.self,
      Remove.self, Export.self, Import.self, Prune.self,
    ]
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List sessions, pinned first, newest first.")
    @Flag(name: .long, help: "Include archived sessions.") var all = false
    @Option(name: .long, help: "Most sessions to list.") var limit: Int?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let sessions = try await Engine.openProfile().sessions.list(includeArchived: all, limit: limit)
        if json { return Terminal.write(try JSONOutput.encode(sessions) + "\n") }
        for session in sessions { Terminal.write(SessionLine.render(session) + "\n") }
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a session's messages.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    @Flag(name: .long, help: "Print JSON (session and messages with role, content, thinking and state).")
    var json = false

    func run() async throws {
      try await reportingFailures {
        let library = try await Engine.openProfile().sessions
        let export = try library.export(try library.session(matching: id).id)
        Terminal.write(json ? try JSONOutput.encode(export) + "\n" : try library.narrated(export).markdown)
      }
    }
  }

  struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Full-text search over titles and messages.")
    @Argument(help: "Words to find (all of them, whole words).") var query: String
    @Option(name: .long, help: "all, titles, bodies or pinned.") var scope: SearchScope = .all
    @Option(name: .long, help: "Most results.") var limit = 20
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let hits = try await Engine.openProfile().sessions.search(query, scope: scope, limit: limit)
        if json { return Terminal.write(try JSONOutput.encode(hits) + "\n") }
        if hits.isEmpty { Terminal.writeError("no matches\n") }
        for hit in hits { Terminal.write("\(SessionLine.render(hit.session))\n    \(hit.snippet)\n") }
      }
    }
  }

  struct Rename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Rename a session.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    @Argument(help: "The new title.") var title: String

    func validate() throws {
      if title.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the title is empty") }
    }

    func run() async throws {
      try await SessionEdit.apply(id) { [title] in $0.title = title.trimmingCharacters(in: .whitespaces) }
    }
  }

  struct Pin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pin a session: listed first, never pruned.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    func run() async throws { try await SessionEdit.apply(id) { $0.isPinned = true } }
  }

  struct Unpin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unpin a session.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    func run() async throws { try await SessionEdit.apply(id) { $0.isPinned = false } }
  }

  struct Archive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Archive a session: hidden from lists, kept.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    func run() async throws { try await SessionEdit.apply(id) { $0.isArchived = true } }
  }

  struct Unarchive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring an archived session back.")
    @Argument(help: "Session id or unique id prefix.") var id: String
    func run() async throws { try await SessionEdit.apply(id) { $0.isArchived = false } }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a session and its messages.")
    @Argument(help: "Session id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        let library = try await Engine.openProfile().sessions
        try library.delete(try library.session(matching: id).id)
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Export a session, or every one, as Markdown or JSON.")
    @Argument(help: "Session id or unique id prefix.") var id: String?
    @Flag(name: .long, help: "Every session, archived ones too.") var all = false
    @Option(name: .long, help: "md or json.") var format: ExportFormat = .md
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func validate() throws {
      if all == (id != nil) { throw ValidationError("give a session id or --all, not both") }
    }

    func run() async throws {
      try await reportingFailures {
        let library = try await Engine.openProfile().sessions
        let text: String
        if all {
          let exports = try library.exportAll(narrated: format == .md)
          struct Everything: Encodable { var sessions: [SessionExport] }
          text =
            format == .json
            ? try JSONOutput.encode(Everything(sessions: exports), pretty: true) + "\n"
            : exports.map(\.markdown).joined(separator: "\n\n---\n\n") + "\n"
        } else {
          let export = try library.export(try library.session(matching: id ?? "").id)
          // Markdown is for reading: action blocks are told as what they did, as `sessions show` and the web
          // export tell them; JSON keeps the blocks as stored.
          text =
            format == .json
            ? try JSONOutput.encode(export, pretty: true) + "\n" : try library.narrated(export).markdown
        }
        if let output {
          try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
          Terminal.write(text)
        }
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Import a session exported as JSON.")
    @Argument(help: "A file written by `hearth sessions export --format json`.") var file: String

    func run() async throws {
      try await reportingFailures {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let export: SessionExport
        do {
          export = try JSONOutput.decoder.decode(SessionExport.self, from: data)
        } catch {
          throw StoreError.invalidImport("\(file) is not a session export: \(DecodingFailure.describe(error))")
        }
        let session = try await Engine.openProfile().sessions.importSession(export)
        Terminal.write("imported \(session.id.uuidString) “\(session.title)” (\(export.messages.count) messages)\n")
      }
    }
  }

  struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Delete old sessions; pinned and archived sessions are never deleted.")
    @Option(name: .long, help: "Keep this many most recent sessions.") var keep: Int?
    @Option(name: .long, help: "Delete sessions not updated for this many days.") var olderThan: Double?

    func validate() throws {
      guard keep != nil || olderThan != nil else { throw ValidationError("give --keep, --older-than or both") }
      if let keep, keep < 0 { throw ValidationError("--keep must not be negative") }
      if let olderThan, !(olderThan >= 0) { throw ValidationError("--older-than must not be negative") }
    }

    func run() async throws {
      try await reportingFailures {
        let policy = HistoryPolicy(maximumSessions: keep, maximumAge: olderThan.map { $0 * 86_400 })
        Terminal.write("deleted \(try await Engine.openProfile().sessions.prune(policy)) sessions\n")
      }
    }
  }
}

enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
  case md
  case json
}

extension SearchScope: ExpressibleByArgument {}

/// Opens the profile, changes one session and saves it.
enum SessionEdit {
  static func apply(_ reference: String, _ change: @escaping @Sendable (inout ChatSession) -> Void) async throws {
    try await reportingFailures {
      let library = try await Engine.openProfile().sessions
      let session = try library.modify(try library.session(matching: reference).id, change)
      Terminal.write(SessionLine.render(session) + "\n")
    }
  }
}

/// One line describing a session.
enum SessionLine {
  static func render(_ session: ChatSession) -> String {
    let date = ISO8601DateFormatter.string(
      from: session.updatedAt, timeZone: .current, formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime])
    let flags = (session.isPinned ? " [pinned]" : "") + (session.isArchived ? " [archived]" : "")
    return "\(session.id.uuidString.prefix(8))  \(date)  \(session.title)\(flags)"
  }
}
