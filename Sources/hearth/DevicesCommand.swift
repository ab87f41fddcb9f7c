import ArgumentParser
import Foundation
import HearthCore
import HearthEngine

struct DevicesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices",
    abstract: "The phones and other computers paired with this profile, each with a key of its own.",
    discussion: """
      `hearth devices pair` prints a short code; typed on a new device where Hearth asks for its key, it pairs \
      that device (a browser keeps a cookie its pages cannot read, an API client gets a token). A device that is \
      lost is revoked on its own, and refused from its next request; the server's --api-key keeps working.
      """,
    subcommands: [List.self, Pair.self, AppPassword.self, Rename.self, Revoke.self], defaultSubcommand: List.self)

  static func line(_ device: PairedDevice) -> String {
    let used =
      device.lastUsedAt.map { "last used \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "not used yet"
    return "\(device.name) — paired \(device.createdAt.formatted(date: .abbreviated, time: .shortened)), \(used)"
      + Terminal.dim("  (\(device.id.uuidString.prefix(8).lowercased()))")
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The paired devices, the most recently paired first.")
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let devices = try await Engine.openProfile().devices.list()
        if json { return Terminal.write(try JSONOutput.encode(devices) + "\n") }
        if devices.isEmpty { Terminal.writeError("no paired devices (hearth devices pair lets one in)\n") }
        for device in devices { Terminal.write(DevicesCommand.line(device) + "\n") }
      }
    }
  }

  struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a single-use code that pairs one more device, typed where Hearth asks for its key.")
    @Option(name: .long, help: "How long the code stays valid (1 to 60 minutes).") var minutes = 10
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let code = try await Engine.openProfile().devices.makePairingCode(minutes: minutes)
        if json { return Terminal.write(try JSONOutput.encode(code) + "\n") }
        Terminal.write("\(code.code)\n")
        Terminal.writeError(
          "valid until \(code.expiresAt.formatted(date: .abbreviated, time: .shortened)), for one device\n")
      }
    }
  }

  struct AppPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "app-password",
      abstract: "Add a device for a calendar or contacts app and print its password (shown once).",
      discussion: """
        The phone's Calendar, Reminders and Contacts apps (an iOS CalDAV or CardDAV account, DAVx5, Thunderbird) \
        sign in to `hearth serve` with any user name and this password; revoke the device to cut the app off.
        """)
    @Argument(help: "What the device is called (\"Ana's iPhone calendar\").") var name: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let added = try await Engine.openProfile().devices.addAppPassword(name: name)
        if json {
          return Terminal.write(try JSONOutput.encode(["name": added.device.name, "password": added.secret]) + "\n")
        }
        Terminal.write("\(added.secret)\n")
        Terminal.writeError(
          "the password of \(added.device.name): give it with any user name and the server's address "
            + "(https://HOST:PORT/, or …/dav/); it is not shown again\n")
      }
    }
  }

  struct Rename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Give a paired device another name.")
    @Argument(help: "The device: the start of its id (as listed) or its name.") var device: String
    @Argument(help: "Its new name.") var name: String

    func run() async throws {
      try await reportingFailures {
        let devices = try await Engine.openProfile().devices
        try devices.rename(try devices.find(device).id, to: name)
        Terminal.write("renamed to \(name)\n")
      }
    }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cut a device off: its key is forgotten and its next request refused.")
    @Argument(help: "The device: the start of its id (as listed) or its name.") var device: String

    func run() async throws {
      try await reportingFailures {
        let devices = try await Engine.openProfile().devices
        let found = try devices.find(device)
        try devices.revoke(found.id)
        Terminal.write("\(found.name) can no longer reach Hearth\n")
      }
    }
  }
}
