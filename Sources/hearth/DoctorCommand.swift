import ArgumentParser
import Foundation
import HearthEngine

struct DoctorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "A report to paste into a bug report: model, settings, memory, loads, speed, failures.",
    discussion: """
      Figures, file names and settings only: never chat text, ids, paths, host names or keys. The model is not \
      loaded; loads and speeds come from the profile's telemetry. The database gets SQLite's full check.
      """)

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func run() async throws {
    try await reportingFailures {
      // Opening the profile reports a damaged database before anything opens it for writing.
      let engine = try await Engine.openProfile()
      let report = try await engine.doctor(fullCheck: true)
      Terminal.write(json ? String(decoding: try report.json(), as: UTF8.self) + "\n" : report.text)
    }
  }
}
