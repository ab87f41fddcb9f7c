import Testing

@testable import HearthBench

@Suite("The soak's leaked descriptors")
struct SoakDescriptorTests {
  @Test func connectionsLeftOpenAfterTheClientsHungUpAreLeaks() {
    let idle = ["/p/hearth.sqlite", "socket", "socket", "anon_inode:[eventfd]"]
    // After the warm-up: two clients connected and a backup being written.
    let warm = idle + ["socket", "socket", "/p/hearth.sqlite-wal", "/p/backups/a.hearthbackup.partial"]
    #expect(SoakBenchmark.leaked(idle: idle, warm: warm, end: idle + ["/p/hearth.sqlite-wal"]).isEmpty)
    // A connection still open at the end is a leak even though the warm-up reading held as many sockets.
    #expect(SoakBenchmark.leaked(idle: idle, warm: warm, end: idle + ["socket"]) == ["socket"])
    // A file neither reading held (a backup never closed), or one held more often than either did.
    #expect(
      SoakBenchmark.leaked(idle: idle, warm: warm, end: idle + ["/p/backups/b.hearthbackup", "pipe"])
        == ["/p/backups/b.hearthbackup", "pipe"])
    // The database's pool opens its readers as reads overlap, after the warm-up too, up to its limit.
    let pooled = Array(repeating: "/p/hearth.sqlite", count: 6)
    #expect(SoakBenchmark.leaked(idle: idle, warm: warm, end: Array(idle.dropFirst()) + pooled).isEmpty)
    #expect(
      SoakBenchmark.leaked(idle: idle, warm: warm, end: idle + pooled) == ["/p/hearth.sqlite"])
  }
}
