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

extension GenerationQueueTests {
  /// With room for three, three requests hold the model at once and the fourth waits for one to leave.
  @Test func asManyHoldTheModelAsItHasSlots() async throws {
    let queue = GenerationQueue(capacity: 3)
    let held = [try await queue.enter(), try await queue.enter(), try await queue.enter()]
    let fourth = Task { try await queue.enter() }
    while await queue.depth < 4 { await Task.yield() }
    await queue.leave(held[1])
    let admitted = try await fourth.value
    #expect(await queue.depth == 3)
    for ticket in [held[0], held[2], admitted] { await queue.leave(ticket) }
    #expect(await queue.depth == 0)
  }

  /// Holding the model alone (a load or a switch) waits for every holder to leave, and keeps later requests
  /// out until it is done, even when there is room for them.
  @Test func holdingAloneWaitsForEveryoneAndKeepsLaterOnesOut() async throws {
    let queue = GenerationQueue(capacity: 4)
    let log = RunLog()
    let first = try await queue.enter()
    let alone = Task {
      try await queue.run {
        await log.begin(100)
        try await Task.sleep(for: .milliseconds(5))
        await log.end()
      }
    }
    while await queue.depth < 2 { await Task.yield() }
    let later = Task {
      let ticket = try await queue.enter()
      #expect(await log.begin(1) == 1)  // the lone holder has finished by now
      await log.end()
      await queue.leave(ticket)
    }
    while await queue.depth < 3 { await Task.yield() }
    #expect(await log.order.isEmpty)
    await queue.leave(first)
    try await alone.value
    try await later.value
    #expect(await log.order == [100, 1])
  }

  /// A line whose capacity grows lets in the waiters that now fit.
  @Test func aLargerCapacityLetsWaitersIn() async throws {
    let queue = GenerationQueue()
    let first = try await queue.enter()
    let second = Task { try await queue.enter() }
    while await queue.depth < 2 { await Task.yield() }
    await queue.setCapacity(2)
    let admitted = try await second.value
    await queue.leave(first)
    await queue.leave(admitted)
    #expect(await queue.depth == 0)
  }
}

/// What ran, in order, and how many at once.
private actor RunLog {
  private(set) var order: [Int] = []
  private var running = 0

  @discardableResult
  func begin(_ index: Int) -> Int {
    order.append(index)
    running += 1
    return running
  }

  func end() { running -= 1 }
}
