public import ArgumentParser
import Foundation
public import HearthCore
import HearthEngine

/// `hearth personas …`: named assistants with their own instructions, backstory, model and sampling.
struct PersonasCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "personas",
    abstract: "Named assistants: list, show, add, change and remove them; start a chat with hearth chat --persona.",
    subcommands: [List.self, Show.self, Add.self, Edit.self, Remove.self]
  )

  static func line(_ persona: Persona) -> String {
    let traits = [persona.model, persona.preset?.rawValue].compactMap { $0 }
    let story =
      persona.backstory.isEmpty ? "" : " · backstory of \(persona.backstory.split(separator: " ").count) words"
    return persona.name + (traits.isEmpty ? "" : " (\(traits.joined(separator: ", ")))")
      + Terminal.dim("  \(persona.id.uuidString.prefix(8))\(story)")
  }

  /// A text given on the command line, or read from a file (`-` for standard input).
  static func text(_ given: String?, file: String?, name: String) throws -> String? {
    if let given { return given }
    guard let file else { return nil }
    if file == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
    do {
      return try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw ValidationError("--\(name)-file \(file) cannot be read as UTF-8 text: \(error.localizedDescription)")
    }
  }

  /// The fields `add` and `edit` take.
  struct Fields: ParsableArguments {
    @Option(name: .long, help: "Who it is and how it speaks, in place of Hearth's own opening.") var prompt: String?
    @Option(name: .long, help: "A file holding the prompt ('-' for standard input).", completion: .file())
    var promptFile: String?
    @Option(name: .long, help: "What it knows of its own life.") var backstory: String?
    @Option(name: .long, help: "A file holding the backstory ('-' for standard input).", completion: .file())
    var backstoryFile: String?
    @Option(name: .long, help: "The installed chat model that answers for it (id or file name).") var model: String?
    @Option(name: .long, help: "Its sampling: precise, balanced or creative.") var preset: ChatSettings.Preset?

    func validate() throws {
      if prompt != nil, promptFile != nil { throw ValidationError("give --prompt or --prompt-file, not both") }
      if backstory != nil, backstoryFile != nil {
        throw ValidationError("give --backstory or --backstory-file, not both")
      }
      if preset == .custom { throw ValidationError("--preset takes precise, balanced or creative") }
      if promptFile == "-", backstoryFile == "-" {
        throw ValidationError("only one of --prompt-file and --backstory-file can read standard input")
      }
    }

    /// Writes the fields given into `persona`.
    func apply(to persona: inout Persona) throws {
      if let prompt = try PersonasCommand.text(prompt, file: promptFile, name: "prompt") {
        persona.systemPrompt = prompt
      }
      if let story = try PersonasCommand.text(backstory, file: backstoryFile, name: "backstory") {
        persona.backstory = story
      }
      if let model { persona.model = model }
      if let preset { persona.preset = preset }
    }

    var isEmpty: Bool {
      prompt == nil && promptFile == nil && backstory == nil && backstoryFile == nil && model == nil && preset == nil
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the personas by name.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let personas = try await Engine.openProfile().personas.list()
        if json { return Terminal.write(try JSONOutput.encode(personas) + "\n") }
        if personas.isEmpty { Terminal.writeError("no personas; add one with hearth personas add NAME\n") }
        for persona in personas { Terminal.write(PersonasCommand.line(persona) + "\n") }
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a persona whole.")
    @Argument(help: "Its name or id.") var persona: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let found = try await Engine.openProfile().personas.find(persona)
        if json { return Terminal.write(try JSONOutput.encode(found) + "\n") }
        Terminal.write(
          PersonasCommand.line(found) + "\n\nPrompt: \(found.systemPrompt ?? "(Hearth's own, with its name)")\n"
            + "\nBackstory: \(found.backstory.isEmpty ? "(none)" : found.backstory)\n")
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a persona.")
    @Argument(help: "Its name.") var name: String
    @OptionGroup var fields: Fields
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        var persona = Persona(name: name)
        try fields.apply(to: &persona)
        let added = try await Engine.openProfile().personas.create(persona)
        if json { return Terminal.write(try JSONOutput.encode(added) + "\n") }
        Terminal.write("added \(PersonasCommand.line(added))\n")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change a persona; what is not given stays.")
    @Argument(help: "Its name or id.") var persona: String
    @Option(name: .long, help: "Its new name.") var name: String?
    @OptionGroup var fields: Fields
    @Flag(name: .long, help: "Go back to Hearth's own opening, with the persona's name.") var noPrompt = false
    @Flag(name: .long, help: "Answer with the chosen model again.") var noModel = false
    @Flag(name: .long, help: "Sample by the chat settings again.") var noPreset = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if noPrompt, fields.prompt != nil || fields.promptFile != nil {
        throw ValidationError("give a prompt or --no-prompt, not both")
      }
      if noModel, fields.model != nil { throw ValidationError("give --model or --no-model, not both") }
      if noPreset, fields.preset != nil { throw ValidationError("give --preset or --no-preset, not both") }
      if name == nil, fields.isEmpty, !noPrompt, !noModel, !noPreset {
        throw ValidationError("nothing to change: give --name, a prompt, a backstory, --model or --preset")
      }
    }

    func run() async throws {
      try await reportingFailures {
        let personas = try await Engine.openProfile().personas
        // Files are read before the change, so one that cannot be read changes nothing.
        var wanted = try personas.find(persona)
        try fields.apply(to: &wanted)
        if let name { wanted.name = name }
        if noPrompt { wanted.systemPrompt = nil }
        if noModel { wanted.model = nil }
        if noPreset { wanted.preset = nil }
        let changed = try await personas.update(persona) { [wanted] in $0 = wanted }
        if json { return Terminal.write(try JSONOutput.encode(changed) + "\n") }
        Terminal.write("changed \(PersonasCommand.line(changed))\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove a persona; its chats stay and are answered as Hearth from then on.")
    @Argument(help: "Its name or id.") var persona: String

    func run() async throws {
      try await reportingFailures {
        let removed = try await Engine.openProfile().personas.delete(persona)
        Terminal.write("removed \(removed.name)\n")
      }
    }
  }
}

extension ChatSettings.Preset: ExpressibleByArgument {}
