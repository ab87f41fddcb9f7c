public import Foundation
public import HearthCore

/// The real models the tests run, installed by `make setup` (`$HEARTH_TEST_MODELS`, else the default cache).
public enum TestModels {
  /// Folder holding the test models.
  public static var directory: String {
    let environment = ProcessInfo.processInfo.environment
    if let folder = environment["HEARTH_TEST_MODELS"], !folder.isEmpty { return folder }
    let home = environment["HOME"] ?? NSHomeDirectory()
    let cache = environment["XDG_CACHE_HOME"] ?? "\(home)/.cache"
    return "\(cache)/hearth/models"
  }

  /// SmolLM2-135M-Instruct (llama architecture, chatml template): the tiny chat model.
  public static var smolLM2: String { "\(directory)/SmolLM2-135M-Instruct.Q4_1.gguf" }

  /// gemma-3-270m (gemma3 architecture, base model without a chat template).
  public static var gemma3: String { "\(directory)/gemma-3-270m-Q4_K_M.gguf" }

  /// all-MiniLM-L6-v2 (bert architecture, 384 dimensions, mean pooling): the embedding model.
  public static var miniLM: String { "\(directory)/all-MiniLM-L6-v2.f16.gguf" }

  /// Whisper tiny.en in whisper.cpp's format, converted by the set-up: the speech model.
  public static var whisperTinyEn: String { "\(directory)/ggml-tiny.en.bin" }

  /// Piper's "joe" voice prepared for sherpa-onnx by the set-up (its tokens file beside it): the voice.
  public static var piperVoice: String { "\(directory)/en_US-joe-medium.onnx" }

  /// The voice's tokens file.
  public static var piperTokens: String { "\(directory)/en_US-joe-medium.tokens.txt" }

  /// Silero VAD converted to whisper.cpp's format by the set-up: the voice-activity model.
  public static var sileroVAD: String { "\(directory)/ggml-silero-v6.2.3.bin" }

  /// llama.cpp's prefix as the set-up built it.
  public static var llamaPrefix: String {
    let environment = ProcessInfo.processInfo.environment
    return environment["HEARTH_LLAMA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "\(environment["HOME"] ?? NSHomeDirectory())/.cache/hearth/llama.cpp-0.3.36"
  }

  /// Set-up's proof record of the llama.cpp build, when there is one.
  public static var llamaProof: NativeBuildFacts.Proof? {
    guard let text = try? String(contentsOfFile: "\(llamaPrefix)/.hearth-proof", encoding: .utf8) else { return nil }
    return NativeBuildFacts.Proof(record: text)
  }

  /// whisper.cpp's prefix as the set-up built it.
  public static var whisperPrefix: String {
    let environment = ProcessInfo.processInfo.environment
    return environment["HEARTH_WHISPER_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "\(environment["HOME"] ?? NSHomeDirectory())/.cache/hearth/whisper.cpp-1.8.5"
  }

  /// whisper.cpp's test clip: eleven seconds of John F. Kennedy's inaugural address, 16 kHz mono.
  public static var jfkWAV: String { "\(whisperPrefix)/samples/jfk.wav" }

  /// What jfk.wav says.
  public static let jfkText =
    "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

  /// A llama.cpp tool (`llama-embedding`, `llama-bench`, …) from the prefix the set-up built.
  public static func llamaTool(_ name: String) -> String {
    let environment = ProcessInfo.processInfo.environment
    let prefix =
      environment["HEARTH_LLAMA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "\(environment["HOME"] ?? NSHomeDirectory())/.cache/hearth/llama.cpp-0.3.36"
    return "\(prefix)/bin/\(name)"
  }

  /// The package root, for finding built products.
  public static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Threads for a model in a test: the CPUs this process may use (one when the suite runs in lanes, each
  /// pinned to a CPU of its own).
  public static var threads: Int { Processors.available }

  /// A fresh temporary folder.
  public static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// How the suite is being run. `make test` runs one test at a time (`HEARTH_TESTS_SERIAL=1 swift test
/// --no-parallel`) so that expectations about time limits hold; a plain parallel `swift test` on two cores
/// may leave a time-limited generation no time to produce anything, and those expectations are skipped.
public enum TestLoad {
  /// Whether tests run one at a time.
  public static var runsSerially: Bool { ProcessInfo.processInfo.environment["HEARTH_TESTS_SERIAL"] == "1" }
}
