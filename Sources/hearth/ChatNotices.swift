import Foundation
import HearthCore
import HearthEngine
import Synchronization

/// Notices in a running `hearth chat`: looked for every 15 seconds (the first look lists the ones that fired
/// while nothing was open), each printed once, as a line between turns — held while an answer streams.
final class ChatNotices: Sendable {
  private struct State {
    var shown: Set<String> = []
    var held: [Notice] = []
    var answering = false
    var warned = false
  }

  private let notices: NoticeService
  private let state = Mutex(State())

  init(_ notices: NoticeService) {
    self.notices = notices
  }

  /// Looks now and every `interval` until the task is cancelled.
  func watch(every interval: Duration = .seconds(15)) -> Task<Void, Never> {
    Task {
      while !Task.isCancelled {
        look()
        do { try await Task.sleep(for: interval) } catch { return }
      }
    }
  }

  /// Holds notices while an answer streams, and prints what was held once it ends.
  func setAnswering(_ answering: Bool) {
    let ready = state.withLock { state -> [Notice] in
      state.answering = answering
      guard !answering else { return [] }
      defer { state.held = [] }
      return state.held
    }
    print(ready, reprompt: false)
  }

  private func look() {
    let standing: [Notice]
    do {
      standing = try notices.check()
    } catch {
      let first = state.withLock { state in
        defer { state.warned = true }
        return !state.warned
      }
      if first { Terminal.writeError("hearth: looking for notices failed (\(error)); will keep trying\n") }
      return
    }
    let ready = state.withLock { state -> [Notice] in
      let fresh = standing.filter { !state.shown.contains($0.id) }
      state.shown.formUnion(fresh.map(\.id))
      guard state.answering else { return fresh }
      state.held += fresh
      return []
    }
    print(ready, reprompt: true)
  }

  private func print(_ ready: [Notice], reprompt: Bool) {
    guard !ready.isEmpty else { return }
    var text = reprompt ? "\n" : ""
    for notice in ready { text += "🔔 \(notice.title) — \(notice.detail)\n" }
    text += Terminal.dim("(hearth notifications: done, snooze or dismiss)") + "\n"
    if reprompt { text += "> " }
    Terminal.write(text)
  }
}
