import ArgumentParser
import Foundation
import HearthEngine
import HearthMCP
import Logging
import MCP

struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Hearth and MCP: as a server for other assistants, and the servers whose tools Hearth may call.",
    discussion: """
      An assistant that speaks MCP (Claude Desktop, an editor, another agent) runs `hearth mcp` as a stdio \
      server, or reaches `hearth serve` at /mcp. It can read the calendar, reminders, notes, habits, contacts \
      and memory; the changes it asks for wait for your confirmation (`hearth actions log`, the web app), \
      creations too unless `hearth mcp settings --creations allow`.

      Servers you add (`hearth mcp add NAME -- COMMAND…` or `--url`) give the assistant their tools: a call of \
      a tool that only reads runs at once, any other waits for your confirmation (`hearth mcp policy`).
      """,
    subcommands: [
      Serve.self, Settings.self, MCPAddCommand.self, MCPListCommand.self, MCPRemoveCommand.self,
      MCPToolsCommand.self, MCPPolicyCommand.self,
    ],
    defaultSubcommand: Serve.self)

  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Answer MCP on standard input and output until the client closes them.")

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let hearth = HearthMCPServer(engine: engine, logger: .commandLine(label: "hearth.mcp"))
        let server = try await hearth.start(on: StdioTransport(logger: .commandLine(label: "hearth.mcp.stdio")))
        await server.waitUntilCompleted()
      }
    }
  }

  struct Settings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show or change what MCP clients may do without asking.")

    enum Creations: String, ExpressibleByArgument, CaseIterable {
      case allow, ask
    }

    @Option(
      name: .long,
      help: "Creations asked for over MCP: allow (run at once, can be undone) or ask (wait for your confirmation).")
    var creations: Creations?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        var settings = try engine.mcpSettings()
        if let creations {
          settings.allowsCreations = creations == .allow
          try engine.setMCPSettings(settings)
        }
        if json { return Terminal.write(try JSONOutput.encode(settings) + "\n") }
        Terminal.write(
          settings.allowsCreations
            ? "Creations asked for over MCP run at once (you can undo them); changes and deletions wait for you.\n"
            : "Everything MCP clients ask to change waits for your confirmation.\n")
      }
    }
  }
}
