public import ArgumentParser
import Foundation
public import HearthEngine

/// `hearth mcp add NAME -- COMMAND ARGS…` or `hearth mcp add NAME --url URL`.
struct MCPAddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add an MCP server whose tools the assistant may call.",
    discussion: """
      A stdio server is a program Hearth starts when a call first needs it: give its command after --, as in \
      `hearth mcp add time -- uvx mcp-server-time`. An HTTP server that answers MCP with JSON is given by \
      address: `hearth mcp add notes --url http://127.0.0.1:9000/mcp`. The server is reached once now to list \
      its tools.
      """)

  @Argument(help: "The server's name: letters, digits, - or _.") var name: String
  @Option(name: .long, help: "The address of an HTTP server.") var url: String?
  @Option(name: .long, help: "Seconds a call may take before it is given up.") var timeout: Int = 30
  @Flag(name: .long, help: "Print JSON.") var json = false
  @Argument(parsing: .postTerminator, help: "The command that starts a stdio server, after --.")
  var command: [String] = []

  func validate() throws {
    if url != nil, !command.isEmpty { throw ValidationError("give either --url or a command after --, not both") }
    if url == nil, command.isEmpty { throw ValidationError("give the server's command after -- or its --url") }
    if !(1...3_600).contains(timeout) { throw ValidationError("--timeout must be 1–3600 seconds") }
  }

  func run() async throws {
    try await reportingFailures {
      let engine = try await Engine.openProfile()
      defer { Task { await engine.stopToolServers() } }
      let endpoint: ToolServer.Endpoint
      if let url {
        guard let address = URL(string: url) else { throw ToolServerError.unsupportedURL(url) }
        endpoint = .url(address)
      } else {
        endpoint = .command(command)
      }
      var server = try await engine.addToolServer(named: name, endpoint: endpoint, timeoutSeconds: timeout)
      await engine.stopToolServers()
      server = try engine.toolServers().first { $0.name == name } ?? server
      if json { return Terminal.write(try JSONOutput.encode(server) + "\n") }
      Terminal.write("Added \(server.name) with \(server.tools.count) tools:\n" + MCPToolsCommand.lines(server))
    }
  }
}

/// `hearth mcp list`.
struct MCPListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List the MCP servers added.")

  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let servers = try await Engine.openProfile().toolServers()
      if json { return Terminal.write(try JSONOutput.encode(servers) + "\n") }
      if servers.isEmpty { return Terminal.write("No MCP servers added (hearth mcp add NAME -- COMMAND…).\n") }
      for server in servers {
        Terminal.write("\(server.name)  \(server.endpoint)  (\(server.tools.count) tools)\n")
      }
    }
  }
}

/// `hearth mcp rm NAME`.
struct MCPRemoveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an MCP server.")

  @Argument(help: "The server's name.") var name: String

  func run() async throws {
    try await reportingFailures {
      try await Engine.openProfile().removeToolServer(named: name)
      Terminal.write("Removed \(name).\n")
    }
  }
}

/// `hearth mcp tools NAME [--refresh]`.
struct MCPToolsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tools", abstract: "List a server's tools and whether each runs at once or asks first.")

  @Argument(help: "The server's name.") var name: String
  @Flag(name: .long, help: "Ask the server for its tools again.") var refresh = false
  @Flag(name: .long, help: "Print JSON.") var json = false

  func run() async throws {
    try await reportingFailures {
      let engine = try await Engine.openProfile()
      let server: ToolServer
      if refresh {
        server = try await engine.refreshTools(of: name)
        await engine.stopToolServers()
      } else {
        guard let found = try engine.toolServers().first(where: { $0.name == name }) else {
          throw ToolServerError.unknownServer(name, known: try engine.toolServers().map(\.name))
        }
        server = found
      }
      if json { return Terminal.write(try JSONOutput.encode(server.tools) + "\n") }
      Terminal.write(Self.lines(server))
    }
  }

  /// One line per tool: its name, its policy and what it does.
  static func lines(_ server: ToolServer) -> String {
    server.tools.map { tool in
      "  \(tool.name)  [\(server.policy(for: tool.name).rawValue)]  \(tool.description)\n"
    }.joined()
  }
}

/// `hearth mcp policy NAME TOOL ask|allow`.
struct MCPPolicyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "policy",
    abstract: "Set whether a tool's calls run at once (allow) or wait for your confirmation (ask).")

  @Argument(help: "The server's name.") var name: String
  @Argument(help: "The tool's name.") var tool: String
  @Argument(help: "allow or ask.") var policy: ToolPolicy

  func run() async throws {
    try await reportingFailures {
      let server = try await Engine.openProfile().setToolPolicy(policy, server: name, tool: tool)
      Terminal.write("\(server.name) · \(tool): \(server.policy(for: tool).rawValue)\n")
    }
  }
}

extension ToolPolicy: ExpressibleByArgument {}
