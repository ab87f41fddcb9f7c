import Foundation

/// Runs blocking work (file I/O, a model load) on a thread of its own, so that it never holds one of the
/// cooperative pool's few threads.
enum BlockingWork {
  static func run<T: Sendable, E: Error>(
    _ name: String, _ work: @escaping @Sendable () throws(E) -> T
  )
    async throws(E) -> T
  {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
      let thread = Thread {
        do throws(E) {
          continuation.resume(returning: .success(try work()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      thread.name = name
      thread.stackSize = 8 << 20
      thread.start()
    }
    return try result.get()
  }
}
