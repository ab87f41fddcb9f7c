import ArgumentParser
import Foundation
import HearthEngine

/// `hearth prompts`: the prompts kept at hand, as chips above the web app's composer and `/p NAME` in
/// `hearth chat`.
struct PromptsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prompts",
    abstract: "Pin prompts you send often: chips in the web app, /p NAME in hearth chat.",
    subcommands: [List.self, Add.self, Edit.self, Move.self, Remove.self], defaultSubcommand: List.self)

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the pinned prompts in their order.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let prompts = try await Engine.openProfile().pinnedPrompts()
        if json { return Terminal.write(try JSONOutput.encode(prompts) + "\n") }
        if prompts.isEmpty { return Terminal.write("No pinned prompts (hearth prompts add NAME TEXT).\n") }
        for (number, prompt) in prompts.enumerated() {
          Terminal.write("\(number + 1). \(prompt.name): \(prompt.text.replacingOccurrences(of: "\n", with: " "))\n")
        }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pin a prompt at the end of the list.")
    @Argument(help: "Its name, as the chip shows it.") var name: String
    @Argument(help: "What it sends.") var text: String

    func run() async throws {
      try await reportingFailures {
        let prompt = try await Engine.openProfile().pinPrompt(name: name, text: text)
        Terminal.write("Pinned “\(prompt.name)”.\n")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Rename a pinned prompt or change its text.")
    @Argument(help: "Its name.") var name: String
    @Option(name: .customLong("name"), help: "A new name.") var newName: String?
    @Option(name: .long, help: "A new text.") var text: String?

    func validate() throws {
      if newName == nil, text == nil { throw ValidationError("give --name, --text or both") }
    }

    func run() async throws {
      try await reportingFailures {
        let prompt = try await Engine.openProfile().editPinnedPrompt(name, name: newName, text: text)
        Terminal.write("Saved “\(prompt.name)”.\n")
      }
    }
  }

  struct Move: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mv", abstract: "Move a pinned prompt.")
    @Argument(help: "Its name.") var name: String
    @Argument(help: "Its new position, 1 for first.") var position: Int

    func run() async throws {
      try await reportingFailures {
        let prompts = try await Engine.openProfile().movePinnedPrompt(name, to: position)
        Terminal.write(
          prompts.enumerated().map { "\($0.offset + 1). \($0.element.name)" }.joined(separator: "\n") + "\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Unpin a prompt.")
    @Argument(help: "Its name.") var name: String

    func run() async throws {
      try await reportingFailures {
        try await Engine.openProfile().unpinPrompt(name)
        Terminal.write("Unpinned “\(name)”.\n")
      }
    }
  }
}
