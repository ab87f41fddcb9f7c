#if os(macOS) || os(Linux)
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A helper program run on input Hearth did not write (a PDF, an upload), with bounds on what it may cost:
/// its output is read as it comes and the program is stopped once it passes a cap, and it is stopped when
/// it runs past a time limit. A hostile file can then waste a few seconds, never the memory or a thread
/// for good.
public struct BoundedProcess: Sendable {
  /// What a finished run gave.
  public struct Outcome: Sendable {
    /// Standard output, at most the cap.
    public var output: Data
    /// The end of standard error (its last few KiB), for messages.
    public var errors: String
    /// The exit status, or the signal that ended it.
    public var status: Int32
    /// Why the run was stopped early, if it was.
    public var stopped: Stop?
  }

  /// Why a run was stopped.
  public enum Stop: Sendable, Hashable, CustomStringConvertible {
    case outputLimit(bytes: Int)
    case timeLimit(seconds: Double)

    public var description: String {
      switch self {
      case .outputLimit(let bytes): "it wrote more than \(bytes) bytes"
      case .timeLimit(let seconds): "it ran longer than \(Self.seconds(seconds)) s"
      }
    }

    private static func seconds(_ value: Double) -> String {
      value == value.rounded() ? String(Int(value)) : String(value)
    }
  }

  public var executable: URL
  public var arguments: [String]
  /// Most bytes of standard output kept; past it the program is stopped.
  public var outputLimit: Int
  /// Longest the program may run.
  public var timeLimit: Duration

  public init(executable: URL, arguments: [String], outputLimit: Int, timeLimit: Duration) {
    self.executable = executable
    self.arguments = arguments
    self.outputLimit = outputLimit
    self.timeLimit = timeLimit
  }

  /// Runs the program to its end or its bound, on threads of its own (never the cooperative pool's).
  /// - Throws: ``SpawnError`` when the program cannot be started.
  public func run() async throws -> Outcome {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try runBlocking() })
      }
    }
  }

  /// Runs the program, blocking the calling thread until it ends.
  ///
  /// The program is started with `posix_spawn` in a process group of its own, so that stopping it stops
  /// whatever it started too; Foundation's `Process` reports an end only once every program holding its
  /// pipes has ended.
  public func runBlocking() throws -> Outcome {
    let output = try Self.pipe()
    let errors = try Self.pipe()
    let pid = try spawn(output: output.write, errors: errors.write)
    close(output.write)
    close(errors.write)
    let stop = StopFlag()
    let limitSeconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
    let group = Group(pid: pid)
    let timer = DispatchWorkItem {
      stop.set(.timeLimit(seconds: limitSeconds))
      group.stop()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + limitSeconds, execute: timer)
    // Both pipes are read on threads of their own, so a chatty program never blocks on a full pipe.
    let kept = Collected(limit: outputLimit)
    let outputRead = Self.drain(output.read, chunk: 64 << 10) { chunk in
      guard kept.append(chunk) else {
        stop.set(.outputLimit(bytes: outputLimit))
        group.stop()
        return false
      }
      return true
    }
    let errorTail = Collected(limit: nil)
    let errorsRead = Self.drain(errors.read, chunk: 16 << 10) { errorTail.append($0) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        // Reaped by someone else, its status unknown: not counted as a success.
        status = 255 << 8
        break
      }
    }
    group.ended()
    timer.cancel()
    // Something the program started and left running may still hold a pipe: it is not waited for long.
    if stop.value != nil { group.killAll() }
    _ = outputRead.wait(timeout: .now() + 1)
    _ = errorsRead.wait(timeout: .now() + 1)
    let exited = status & 0x7f == 0
    return Outcome(
      output: kept.data, errors: String(decoding: errorTail.data, as: UTF8.self),
      status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), stopped: stop.value)
  }

  /// Why a program could not be started.
  public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public var program: String
    public var code: Int32
    public var description: String { "\(program) could not be started: \(String(cString: strerror(code)))" }
  }

  private func spawn(output: Int32, errors: Int32) throws -> pid_t {
    #if os(Linux)
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    #else
    var actions: posix_spawn_file_actions_t?
    var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, errors, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
    guard code == 0 else {
      close(output)
      close(errors)
      throw SpawnError(program: executable.path, code: code)
    }
    return pid
  }

  /// A pipe whose ends are closed in programs started later.
  private static func pipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    #if canImport(Glibc)
    let made = Glibc.pipe(&ends)
    #else
    let made = Darwin.pipe(&ends)
    #endif
    guard made == 0 else { throw SpawnError(program: "a pipe", code: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// Reads `descriptor` on a new thread until its end or until `take` says no more, then closes it; the
  /// semaphore is signalled then.
  private static func drain(
    _ descriptor: Int32, chunk: Int, take: @escaping @Sendable (Data) -> Bool
  ) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: chunk)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunk) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0, take(Data(buffer[0..<count])) else { break }
      }
      close(descriptor)
      done.signal()
    }
    return done
  }
}

/// The started program's process group: stopped politely, then for good a second later if its leader
/// has not ended; never signalled once the leader is reaped (its id may be reused).
private final class Group: @unchecked Sendable {
  private let lock = NSLock()
  private let pid: pid_t
  private var reaped = false

  init(pid: pid_t) { self.pid = pid }

  func stop() {
    lock.withLock {
      guard !reaped else { return }
      _ = kill(-pid, SIGTERM)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in
      lock.withLock { if !reaped { _ = kill(-pid, SIGKILL) } }
    }
  }

  /// Kills what is left of the group once its leader has ended.
  func killAll() { _ = kill(-pid, SIGKILL) }

  func ended() { lock.withLock { reaped = true } }
}

/// The first reason a run was stopped, set from the timer or the reader.
private final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: BoundedProcess.Stop?

  var value: BoundedProcess.Stop? { lock.withLock { stored } }

  func set(_ stop: BoundedProcess.Stop) {
    lock.withLock { if stored == nil { stored = stop } }
  }
}

/// Bytes read from a pipe: the first `limit` of them, or (with no limit) the last few KiB.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes = Data()
  private let limit: Int?
  private static let tail = 4 << 10

  init(limit: Int?) { self.limit = limit }

  /// Adds a chunk; `false` once the limit is passed (the part within it is kept).
  func append(_ chunk: Data) -> Bool {
    lock.withLock {
      guard let limit else {
        bytes.append(chunk)
        if bytes.count > Self.tail { bytes = Data(bytes.suffix(Self.tail)) }
        return true
      }
      guard bytes.count + chunk.count <= limit else {
        bytes.append(chunk.prefix(limit - bytes.count))
        return false
      }
      bytes.append(chunk)
      return true
    }
  }

  var data: Data { lock.withLock { bytes } }
}
#endif
