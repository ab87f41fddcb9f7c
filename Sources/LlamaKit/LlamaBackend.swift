internal import CLlama
import Foundation
import Synchronization

/// The process-wide llama.cpp backend: initialised once, before the first model is loaded, and never torn
/// down while a model could still be alive. llama.cpp's own log lines are kept out of the user's terminal;
/// errors are captured so that a failed load can say why.
enum LlamaBackend {
  private static let initialised: Void = {
    GPUDrivers.skipWhereNoGPUCanBe()
    llama_log_set(llamaLogCallback, nil)
    llama_backend_init()
    // Registered after ggml's own static objects exist, so it runs before their destructors: from then on
    // nothing is freed or decoded, since another thread would reach into objects the exit is destroying. It
    // takes the lock native work holds, so a free or a decode already under way ends before the exit goes on.
    atexit {
      LlamaBackend.nativeWork.lock()
      LlamaBackend.exiting.store(true, ordering: .sequentiallyConsistent)
      LlamaBackend.nativeWork.unlock()
    }
  }()

  private static let exiting = Atomic<Bool>(false)
  /// Held by native frees and decodes, and by the exit while it marks the process as exiting.
  private static let nativeWork = NSLock()

  /// Runs `body` (a free or a decode of llama.cpp objects) unless the process is exiting; an exit that starts
  /// meanwhile waits for it. Checking ``isExiting`` first and acting after would leave a gap in which the exit
  /// destroys what `body` is about to use.
  /// - Returns: what `body` returned, `nil` when the process is exiting.
  static func unlessExiting<T>(_ body: () throws -> T) rethrows -> T? {
    nativeWork.lock()
    defer { nativeWork.unlock() }
    guard !isExiting else { return nil }
    return try body()
  }

  /// Makes sure the backend is ready. Cheap after the first call.
  static func ensureInitialised() {
    _ = initialised
  }

  /// Whether the process is exiting: native objects are left for the system to reclaim.
  static var isExiting: Bool { exiting.load(ordering: .sequentiallyConsistent) }
}

/// What llama.cpp logged while a caller was interested (a model load): its error and warning lines, and the
/// lines that say where the weights went (``ModelPlacement``).
enum LlamaLogCapture {
  struct Captured {
    var errors: [String] = []
    var placement: [String] = []
  }
  private static let captured = Mutex<Captured?>(nil)

  /// Runs `body` and returns its result together with what llama.cpp logged meanwhile.
  /// Loads are serialised by the caller, so one capture runs at a time.
  static func capturing<T>(_ body: () throws -> T) rethrows -> (T, Captured) {
    captured.withLock { $0 = Captured() }
    defer { captured.withLock { $0 = nil } }
    let result = try body()
    return (result, captured.withLock { $0 ?? Captured() })
  }

  /// Runs `body` and returns its result together with the error and warning lines llama.cpp logged meanwhile.
  static func capturingErrors<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
    let (result, log) = try capturing(body)
    return (result, log.errors)
  }

  static func record(level: ggml_log_level, text: String) {
    let isProblem = level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN
    let isPlacement = !isProblem && (text.contains(" model buffer size =") || text.contains(" layers to GPU"))
    guard isProblem || isPlacement else { return }
    let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !line.isEmpty else { return }
    captured.withLock { captured in
      if isProblem { captured?.errors.append(line) } else { captured?.placement.append(line) }
    }
  }
}

private func llamaLogCallback(level: ggml_log_level, text: UnsafePointer<CChar>?, userData: UnsafeMutableRawPointer?) {
  guard let text else { return }
  LlamaLogCapture.record(level: level, text: String(cString: text))
}
