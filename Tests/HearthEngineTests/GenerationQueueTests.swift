import HearthEngine
import Synchronization
import Testing

@Suite("The fair queue in front of the model")
struct GenerationQueueTests {
  @Test func requestsRunOneAtATimeInArrivalOrder() async throws {
    let queue = GenerationQueue()
    let log = RunLog()
    let first = try await queue.enter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<6 {
        group.addTask {
          try await queue.run {
            #expect(await log.begin(index) == 1)
            try await Task.sleep(for: .milliseconds(5))
            await log.end()
          }
        }
        // Each request is in line before the next arrives.
        while await queue.depth < index + 2 { await Task.yield() }
      }
      await queue.leave(first)
      try await group.waitForAll()
    }
    #expect(await log.order == Array(0..<6))
    #expect(await queue.depth == 0)
  }

  @Test func waitersHearTheirPlaceAsTheLineMoves() async throws {
    let queue = GenerationQueue()
    let holder = try await queue.enter()
    let second = Mutex<[Int]>([])
    let third = Mutex<[Int]>([])
    let a = Task { try await queue.run(onPosition: { p in second.withLock { $0.append(p) } }) {} }
    while await queue.depth < 2 { await Task.yield() }
    let b = Task { try await queue.run(onPosition: { p in third.withLock { $0.append(p) } }) {} }
    while await queue.depth < 3 { await Task.yield() }
    await queue.leave(holder)
    try await a.value
    try await b.value
    #expect(second.withLock { $0 } == [1])
    #expect(third.withLock { $0 } == [2, 1])
  }

  @Test func aCancelledWaiterLeavesTheLine() async throws {
    let queue = GenerationQueue()
    let holder = try await queue.enter()
    let waiting = Task { try await queue.run {} }
    while await queue.depth < 2 { await Task.yield() }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(await queue.depth == 1)
    await queue.leave(holder)
    #expect(await queue.depth == 0)
    // The line still works.
    #expect(try await queue.run { 42 } == 42)
  }
}

/// What ran, in order, and how many at once.
private actor RunLog {
  private(set) var order: [Int] = []
  private var running = 0

  func begin(_ index: Int) -> Int {
    order.append(index)
    running += 1
    return running
  }

  func end() { running -= 1 }
}
