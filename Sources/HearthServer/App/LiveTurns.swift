import Foundation
import HearthEngine

/// The web app's chats as they are answered, for every page that shows them: each turn's events, in the order its
/// own stream sent them, kept while the turn runs. A page that opens (or reloads) a chat while it answers hears the
/// turn from its start and follows it; a second tab on the same chat sees the question and the answer as they come.
/// Only the page that started a turn stops it by leaving; a page that watches may come and go.
actor LiveTurns {
  /// One server-sent event as a turn's stream wrote it.
  struct Event: Sendable, Equatable {
    var name: String
    var data: String
  }

  /// What a watcher hears: a turn's event, or a line that only keeps the connection open.
  enum Heard: Sendable, Equatable {
    case event(Event)
    case keepAlive
  }

  /// Said to a watcher when no turn runs in the chat (at once, when it had none on connecting, and after each
  /// turn's last event): what the chat's store holds now is final.
  static let idle = Event(name: "idle", data: "{}")

  /// The turn running in a chat: its own id (a later turn's events never mix with an earlier one's end), what it
  /// sent so far, and who is told when it ends because the page that asked is out of sight.
  private struct Running {
    var turn: UUID
    var events: [Event] = []
    var away: PushAudience?
  }

  private var running: [UUID: Running] = [:]
  private var watchers: [UUID: [UUID: AsyncStream<Heard>.Continuation]] = [:]
  private var closed = false

  /// A turn starts in `session`: what it sends from now on is kept for those who join later. The id it returns
  /// names the turn to ``send(_:of:in:)`` and ``end(_:in:)``.
  func begin(_ session: UUID) -> UUID {
    let turn = UUID()
    running[session] = Running(turn: turn)
    return turn
  }

  /// An event of `turn`, kept and told to the chat's watchers while it is the chat's running turn.
  func send(_ event: Event, of turn: UUID, in session: UUID) {
    guard running[session]?.turn == turn else { return }
    running[session]?.events.append(event)
    for watcher in watchers[session, default: [:]].values { watcher.yield(.event(event)) }
  }

  /// `turn` has ended and its answer is stored; a turn that began in the chat since is left running. Returns who
  /// asked to be told of the end while away (``leave(_:notifying:)``), if anyone still is.
  @discardableResult
  func end(_ turn: UUID, in session: UUID) -> PushAudience? {
    guard let ended = running[session], ended.turn == turn else { return nil }
    running[session] = nil
    for watcher in watchers[session, default: [:]].values { watcher.yield(.event(Self.idle)) }
    return ended.away
  }

  /// The page that asked the turn running in `session` is out of sight (a phone locked, another tab shown): the
  /// turn goes on to its end even if the page's connection drops, and `audience` is notified when it ends.
  /// `false` when no turn runs there.
  func leave(_ session: UUID, notifying audience: PushAudience) -> Bool {
    guard running[session] != nil else { return false }
    running[session]?.away = audience
    return true
  }

  /// The page is in sight again: nobody is notified, and leaving stops the turn again. `false` when no turn runs.
  func comeBack(_ session: UUID) -> Bool {
    guard running[session] != nil else { return false }
    running[session]?.away = nil
    return true
  }

  /// Whether `turn` is still the chat's running turn and its page is away.
  func isAway(_ turn: UUID, in session: UUID) -> Bool {
    guard let current = running[session], current.turn == turn else { return false }
    return current.away != nil
  }

  /// Whether a turn runs in `session`.
  func isRunning(_ session: UUID) -> Bool { running[session] != nil }

  /// The chat's events from now on, after those of the turn running in it (or ``idle`` when none runs), with a
  /// keep-alive every `keepAlive` while nothing else is said. The stream ends when the caller stops reading it or
  /// the server shuts down.
  func watch(_ session: UUID, keepAlive: Duration = .seconds(20)) -> AsyncStream<Heard> {
    let (stream, continuation) = AsyncStream.makeStream(of: Heard.self, bufferingPolicy: .bufferingNewest(4096))
    guard !closed else {
      continuation.finish()
      return stream
    }
    let id = UUID()
    for event in running[session]?.events ?? [Self.idle] { continuation.yield(.event(event)) }
    watchers[session, default: [:]][id] = continuation
    let beat = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: keepAlive)
        continuation.yield(.keepAlive)
      }
    }
    continuation.onTermination = { _ in
      beat.cancel()
      Task { await self.forget(id, in: session) }
    }
    return stream
  }

  private func forget(_ watcher: UUID, in session: UUID) {
    watchers[session]?[watcher] = nil
    if watchers[session]?.isEmpty == true { watchers[session] = nil }
  }

  /// Ends every watcher's stream, for a server shutting down (the watch route calls it when the shutdown reaches
  /// it); later watchers get an ended stream at once.
  func closeAll() {
    closed = true
    for watcher in watchers.values.flatMap(\.values) { watcher.finish() }
    watchers = [:]
  }
}
