import Foundation
import HearthEngine
import Logging
import Testing

@Suite("The Diagnostics page's recent log: the latest lines, oldest first, from info up")
struct RecentLogTests {
  @Test func theOldestLinesGoFirstAndTheRestKeepTheirOrder() {
    let log = RecentLog(capacity: 3)
    var logger = log.keeping(Logger(label: "hearth.test", factory: { _ in SwiftLogNoOpLogHandler() }))
    logger[metadataKey: "method"] = "GET"
    for index in 1...5 { logger.info("line \(index)", metadata: ["status": "20\(index)"]) }
    let lines = log.latest(10)
    #expect(lines.map(\.message) == ["line 3", "line 4", "line 5"])
    #expect(lines.last?.metadata == ["method": "GET", "status": "205"])
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

  @Test func namesPathsAndErrorTextsAreWithheldAndErrorKindsShown() {
    let log = RecentLog()
    let logger = log.keeping(Logger(label: "hearth.engine", factory: { _ in SwiftLogNoOpLogHandler() }))
    logger.warning(
      "sync failed",
      metadata: [
        "account": "anna-fastmail", "error": "could not reach https://dav.example.com/anna/", "route": "/api/accounts",
      ])
    logger.warning("a look-up failed", metadata: ["error": "StoreError.unavailable"])
    let lines = log.latest(2)
    #expect(lines.first?.metadata == ["account": "(withheld)", "error": "(withheld)", "route": "/api/accounts"])
    #expect(lines.last?.metadata == ["error": "StoreError.unavailable"])
  }
}
