import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Logging
import ServiceLifecycle
import Testing

@testable import HearthEngine

@Suite("The local model host: loads on demand, unloads when idle or after repeated timeouts", .heavy)
struct ModelHostTests {
  private func database() throws -> HearthDatabase {
    try HearthDatabase(path: try TestModels.temporaryDirectory().appendingPathComponent("hearth.sqlite").path)
  }

  private func host(_ database: HearthDatabase, clock: ManualClock) -> LocalModelHost {
    LocalModelHost(
      active: .init(
        options: LocalModelOptions(path: TestModels.smolLM2, contextSize: 512, threads: TestModels.threads)),
      loaded: nil,
      environment: [:], record: Engine.recorder(database), now: { clock.now })
  }

  private func say(_ host: LocalModelHost, options: GenerationOptions) async throws -> StopReason? {
    var reason: StopReason?
    for try await event in host.generate(messages: [.user("Count to fifty.")], options: options) {
      if case .done(let stop) = event { reason = stop }
    }
    return reason
  }

  @Test func anIdleModelIsUnloadedAndComesBackForTheNextTurn() async throws {
    let database = try database()
    let clock = ManualClock()
    let host = host(database, clock: clock)
    #expect(host.loaded == nil)
    #expect(try await say(host, options: GenerationOptions(maxNewTokens: 4, sampling: .greedy)) == .maxTokens)
    #expect(host.loaded != nil)

    clock.advance(.seconds(59))
    #expect(await host.unloadIfIdle(after: .seconds(60)) == nil)
    clock.advance(.seconds(2))
    #expect(await host.unloadIfIdle(after: .seconds(60)) == "idle")
    #expect(host.loaded == nil)
    // Memory pressure unloads whatever the clock says: here, "less than all the memory there is" is always true.
    try await host.prepare()
    #expect(await host.unloadIfIdle(after: nil, pressure: UInt64.max) == "memory pressure")

    #expect(try await say(host, options: GenerationOptions(maxNewTokens: 4, sampling: .greedy)) == .maxTokens)
    let records = try database.telemetry()
    // The host records loads and unloads; generations are measured by the engine's wrapper around it.
    #expect(records.map(\.kind) == [.load, .unload, .load, .unload, .load])
    #expect(records.filter { $0.kind == .unload }.map(\.detail) == ["idle", "memory pressure"])
  }

  @Test func theIdleUnloadServiceRunsInTheServiceGroupAndStopsWithIt() async throws {
    let database = try database()
    let host = host(database, clock: ManualClock())
    try await host.prepare()
    let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    // "Less than all the memory there is" is always true: the first check unloads.
    let service = IdleUnloadService(
      host: host, idle: nil, pressure: UInt64.max, interval: .milliseconds(20), logger: quiet)
    let group = ServiceGroup(configuration: .init(services: [service], logger: quiet))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      for _ in 0..<250 where host.loaded != nil { try await Task.sleep(for: .milliseconds(20)) }
      #expect(host.loaded == nil, "the service never unloaded the model")
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
    }
    #expect(try database.telemetry().filter { $0.kind == .unload }.map(\.detail) == ["memory pressure"])
  }

  @Test func threeTimeoutsInARowUnloadTheModel() async throws {
    let database = try database()
    let host = host(database, clock: ManualClock())
    let hurried = GenerationOptions(
      maxNewTokens: 400, sampling: .greedy, timeout: .milliseconds(1), ignoresEndOfGeneration: true)
    #expect(try await say(host, options: hurried) == .timeout)
    #expect(try await say(host, options: hurried) == .timeout)
    #expect(host.loaded != nil)
    #expect(try await say(host, options: hurried) == .timeout)
    #expect(host.loaded == nil)
    #expect(try database.telemetry(kinds: [.unload]).map(\.detail) == ["3 timeouts in a row"])
  }

  @Test func aChoiceThatCannotLoadLeavesThePreviousModel() async throws {
    let database = try database()
    let host = host(database, clock: ManualClock())
    try await host.prepare()
    let broken = try TestModels.temporaryDirectory().appendingPathComponent("broken.gguf")
    try Data("GGUF but not really".utf8).write(to: broken)
    await #expect(throws: (any Error).self) {
      try await host.activate(.init(options: LocalModelOptions(path: broken.path)))
    }
    #expect(host.active.options.path == TestModels.smolLM2)
    #expect(host.loaded?.path == TestModels.smolLM2)
  }
}
