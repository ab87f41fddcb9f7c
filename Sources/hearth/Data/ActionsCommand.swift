import ArgumentParser
import Foundation
import HearthActions
import HearthCore
import HearthEngine

struct ActionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "actions",
    abstract: "What the assistant's answers did to your data: the log, confirm, cancel, undo, and apply a text.",
    subcommands: [Log.self, Confirm.self, Cancel.self, Undo.self, Apply.self, Schema.self]
  )

  struct Log: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The audit log, newest first.")
    @Option(name: .long, help: "Only this session (id or unique prefix).") var session: String?
    @Option(name: .long, help: "Most records.") var limit = 50
    @Flag(name: .long, help: "Only what waits for your confirmation (also what other assistants asked for over MCP).")
    var pending = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let sessionID = try session.map { try engine.sessions.session(matching: $0).id }
        let records = try engine.actions.log(session: sessionID, state: pending ? .pending : nil, limit: limit)
        if json { return Terminal.write(try JSONOutput.encode(records) + "\n") }
        if records.isEmpty { Terminal.writeError("no actions\n") }
        for record in records { Terminal.write(TurnPrinter.card(record) + "\n") }
      }
    }
  }

  /// Runs one transition on the record a reference names.
  static func settle(
    _ reference: String, json: Bool, _ change: (ActionService, UUID) async throws -> ActionRecord
  ) async throws {
    try await reportingFailures {
      let actions = try await Engine.openProfile().actions
      let record = try await change(actions, try actions.record(reference).id)
      Terminal.write(json ? try JSONOutput.encode(record) + "\n" : TurnPrinter.card(record) + "\n")
    }
  }

  struct Confirm: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a pending change or deletion.")
    @Argument(help: "Action id or unique prefix.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await ActionsCommand.settle(id, json: json) { try await $0.confirm($1) } }
  }

  struct Cancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decline a pending change or deletion.")
    @Argument(help: "Action id or unique prefix.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await ActionsCommand.settle(id, json: json) { try $0.cancel($1) } }
  }

  struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take back what an action did.")
    @Argument(help: "Action id or unique prefix.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false
    func run() async throws { try await ActionsCommand.settle(id, json: json) { try $0.undo($1) } }
  }

  struct Schema: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the JSON schema of each kind of action block (or of one: CALENDAR_ACTION, …).")
    @Argument(help: "A kind, e.g. CALENDAR_ACTION.") var kind: String?

    func run() async throws {
      try await reportingFailures {
        let kinds =
          try kind.map { name in
            guard let kind = ActionKind(rawValue: name.uppercased()) else {
              throw ValidationError(
                "\(name) is not one of \(ActionKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return [kind]
          } ?? ActionKind.allCases
        let schemas = JSONValue.object(kinds.map { ($0.rawValue, ActionSpec.jsonSchema(of: $0)) })
        // Schema keywords keep their spelling: no key conversion here.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Terminal.write(String(decoding: try encoder.encode(schemas), as: UTF8.self) + "\n")
      }
    }
  }

  struct Apply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Run the action blocks of an assistant's text (a file, or - for standard input), as if a chat answered it.")
    @Option(name: .long, help: "The session the text belongs to (id or unique prefix).") var session: String
    @Argument(help: "A text file with the assistant's answer.") var file: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let target = try engine.sessions.session(matching: session)
        let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try InputFile.read(file)
        let records = try await engine.actions.process(
          answer: String(decoding: data, as: UTF8.self), session: target.id)
        if json { return Terminal.write(try JSONOutput.encode(records) + "\n") }
        if records.isEmpty { Terminal.writeError("no action blocks in the text\n") }
        for record in records { Terminal.write(TurnPrinter.card(record) + "\n") }
      }
    }
  }
}
