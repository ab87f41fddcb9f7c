import Foundation
import HearthEngine
import HearthStore
import HearthTestSupport
import Testing

@Suite("Configuration: data directory and model resolution", .heavy)
struct ConfigurationTests {
  @Test func resolvesModelsFromFlagEnvironmentAndDataDirectory() throws {
    let home = try TestModels.temporaryDirectory()
    let paths = HearthPaths(home: home)
    #expect(try ModelResolver(paths: paths, environment: [:]).resolve(explicit: "/a.gguf") == "/a.gguf")
    #expect(
      try ModelResolver(paths: paths, environment: ["HEARTH_MODEL": "/b.gguf"]).resolve(explicit: nil) == "/b.gguf")
    #expect(throws: ModelResolutionError.self) {
      try ModelResolver(paths: paths, environment: [:]).resolve(explicit: nil)
    }
    try FileManager.default.createDirectory(at: paths.models, withIntermediateDirectories: true)
    let installed = paths.models.appendingPathComponent(ModelResolver.defaultModelFileName).path
    #expect(FileManager.default.createFile(atPath: installed, contents: Data([1])))
    #expect(try ModelResolver(paths: paths, environment: [:]).resolve(explicit: nil) == installed)
  }

  @Test func readsTheHistoryPolicyFromTheEnvironment() {
    #expect(HistoryPolicy(environment: [:]) == nil)
    #expect(HistoryPolicy(environment: ["HEARTH_KEEP_SESSIONS": "50"]) == HistoryPolicy(maximumSessions: 50))
    #expect(
      HistoryPolicy(environment: ["HEARTH_KEEP_DAYS": "2", "HEARTH_KEEP_SESSIONS": "x"])
        == HistoryPolicy(maximumAge: 2 * 86_400))
  }

  @Test func readsTheDataDirectoryFromTheEnvironment() {
    #expect(HearthPaths(environment: ["HEARTH_HOME": "/data/h"]).home.path == "/data/h")
    #expect(HearthPaths(environment: ["HOME": "/home/u"]).home.path == "/home/u/.local/share/hearth")
  }
}
