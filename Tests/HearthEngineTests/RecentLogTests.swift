import Foundation
import HearthEngine
import Logging
import Testing

@Suite("The Diagnostics page's recent log: the latest lines, oldest first, from info up")
struct RecentLogTests {
  @Test func theOldestLinesGoFirstAndTheRestKeepTheirOrder() {
    let log = RecentLog(capacity: 3)
    var logger = log.keeping(Logger(label: "hearth.test", factory: { _ in SwiftLogNoOpLogHandler() }))
    logger[metadataKey: "kept"] = "yes"
    for index in 1...5 { logger.info("line \(index)", metadata: ["n": "\(index)"]) }
    let lines = log.latest(10)
    #expect(lines.map(\.message) == ["line 3", "line 4", "line 5"])
    #expect(lines.last?.metadata == ["kept": "yes", "n": "5"])
    #expect(lines.allSatisfy { $0.label == "hearth.test" && $0.level == "info" })
    #expect(log.latest(1).map(\.message) == ["line 5"])
  }

  @Test func aQuietTerminalStillLeavesThePageItsLinesButNotTheDebugOnes() {
    let log = RecentLog()
    var quiet = Logger(label: "hearth.server", factory: { _ in SwiftLogNoOpLogHandler() })
    quiet.logLevel = .warning
    let logger = log.keeping(quiet)
    logger.debug("too small")
    logger.info("request")
    logger.error("request failed")
    #expect(log.latest(10).map(\.message) == ["request", "request failed"])
  }
}
