import Foundation

/// Reads standard input line by line on a thread of its own, so waiting for the user never blocks Swift's
/// cooperative threads.
enum LineReader {
  static func lines() -> AsyncStream<String> {
    AsyncStream { continuation in
      let thread = Thread {
        while let line = readLine(strippingNewline: true) {
          continuation.yield(line)
        }
        continuation.finish()
      }
      thread.name = "hearth.stdin"
      thread.start()
    }
  }
}

/// Turns Ctrl-C into a callback instead of ending the process.
final class InterruptHandler: @unchecked Sendable {
  private let source: any DispatchSourceSignal

  init(_ handler: @escaping @Sendable () -> Void) {
    // A parent may have started us with SIGINT blocked; the signal source needs it delivered.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: handler)
    source.resume()
  }

  deinit {
    // SIGINT stays ignored: restoring the default action could let a late Ctrl-C kill a clean exit.
    source.cancel()
  }
}
