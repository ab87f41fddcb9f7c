import ArgumentParser
import Foundation
import HearthBench

struct BenchSyncCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "hearth sync against vdirsyncer on the same Radicale server, in one run: first sync, nothing to do, "
      + "one change on the server, one change here.",
    discussion: """
      Both come from the virtual environment scripts/setup-dav.sh makes ($HEARTH_CACHE/venv-dav). Each tool \
      syncs a collection of its own holding the same events; both are timed as whole commands.
      """)

  @Option(name: .long, help: "Events in each collection.") var events = 5000
  @Option(
    name: .long, help: "The virtual environment with radicale and vdirsyncer (default: $HEARTH_CACHE/venv-dav).")
  var environment: String?
  @Flag(name: .long, help: "Print JSON.") var json = false

  func validate() throws {
    guard (10...100_000).contains(events) else { throw ValidationError("--events must be 10 to 100000") }
  }

  func run() async throws {
    try await reportingFailures {
      let variables = ProcessInfo.processInfo.environment
      let cache =
        variables["HEARTH_CACHE"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/hearth")
      let venv = environment.map { URL(fileURLWithPath: $0) } ?? cache.appendingPathComponent("venv-dav")
      for tool in ["radicale", "vdirsyncer"]
      where !FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bin/\(tool)").path) {
        throw ValidationError("\(tool) is not in \(venv.path): run scripts/setup-dav.sh, or pass --environment")
      }
      var configuration = SyncBenchmark.Configuration(hearth: BenchLlamaCommand.ownExecutable(), environment: venv)
      configuration.events = events
      let rows = try await SyncBenchmark(configuration: configuration).run { line in
        Terminal.writeError(Terminal.dim("· \(line)") + "\n")
      }
      if json { return Terminal.write(try JSONOutput.encode(rows) + "\n") }
      var lines = [
        "| step | hearth sync (s) | vdirsyncer sync (s) | vdirsyncer / hearth |", "|---|---|---|---|",
      ]
      for row in rows {
        lines.append(
          "| \(row.step) | "
            + String(format: "%.2f | %.2f | %.2f×", row.hearthSeconds, row.vdirsyncerSeconds, row.ratio)
            + " |")
      }
      Terminal.write(lines.joined(separator: "\n") + "\n")
    }
  }
}
