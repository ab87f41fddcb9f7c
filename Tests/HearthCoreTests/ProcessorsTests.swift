import Foundation
import Testing

@testable import HearthCore

@Suite("The CPUs a process may use")
struct ProcessorsTests {
  @Test func theAffinityListIsCounted() {
    #expect(Processors.affinityCount(status: "Name:\thearth\nCpus_allowed_list:\t0-1\n") == 2)
    #expect(Processors.affinityCount(status: "Cpus_allowed_list:\t0-3,8,10-11\n") == 7)
    #expect(Processors.affinityCount(status: "Cpus_allowed_list:\t5\n") == 1)
    #expect(Processors.affinityCount(status: "Cpus_allowed_list:\t3-1\n") == nil)
    #expect(Processors.affinityCount(status: "Name:\thearth\n") == nil)
  }

  @Test func aQuotaGivesWholeCPUs() {
    #expect(Processors.quotaCount(cpuMax: "max 100000\n") == nil)
    #expect(Processors.quotaCount(cpuMax: "150000 100000\n") == 2)
    #expect(Processors.quotaCount(cpuMax: "50000 100000") == 1)
    #expect(Processors.quotaCount(cpuMax: "400000 100000") == 4)
  }

  /// A process pinned to one CPU sees one, whatever the machine has.
  @Test func aPinnedProcessSeesItsCPUs() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"),
      ProcessInfo.processInfo.activeProcessorCount >= 2
    else { return }
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    #expect(Processors.available <= (Processors.affinityCount(status: status) ?? .max))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
    process.arguments = ["-c", "0", "/bin/cat", "/proc/self/status"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(Processors.affinityCount(status: output) == 1)
  }
}
