import ArgumentParser
import Foundation
import HearthSpeech

/// Where `hearth say` puts its speech: a WAV file, standard output, or a player fed sentence by sentence.
final class AudioSink {
  private enum Target {
    case file(URL)
    case standardOutput
    case player(Process, FileHandle)
  }

  private let target: Target
  private var collected: [Float] = []
  private var rate = 22_050

  /// A file at `output`; else standard output when it is not a terminal; else the first player installed.
  init(output: String?) throws {
    if let output {
      target = .file(URL(fileURLWithPath: output))
    } else if isatty(STDOUT_FILENO) == 0 {
      target = .standardOutput
    } else {
      target = try Self.startPlayer()
    }
  }

  /// Adds a clip: played at once, or kept for the file.
  func write(_ clip: AudioClip) throws {
    switch target {
    case .file, .standardOutput:
      collected += clip.samples
      rate = clip.sampleRate
    case .player(let process, let input):
      guard process.isRunning else { throw ValidationError("the audio player stopped") }
      let samples =
        clip.sampleRate == Self.playerRate
        ? clip.samples : Resampler(from: clip.sampleRate, to: Self.playerRate).resample(clip.samples)
      do {
        try input.write(contentsOf: AudioClip(samples: samples, sampleRate: Self.playerRate).pcm16Data())
      } catch {
        throw ValidationError("the audio player stopped (\(error.localizedDescription))")
      }
    }
  }

  /// Writes the file, or waits for the player to finish.
  func finish() throws {
    switch target {
    case .file(let url):
      try AudioClip(samples: collected, sampleRate: rate).wavData().write(to: url, options: .atomic)
    case .standardOutput:
      FileHandle.standardOutput.write(AudioClip(samples: collected, sampleRate: rate).wavData())
    case .player(let process, let input):
      try input.close()
      process.waitUntilExit()
    }
  }

  /// The rate every voice Hearth has speaks at; players are started for it before the first clip.
  private static let playerRate = 22_050

  private static func startPlayer() throws -> Target {
    let candidates: [(String, [String])] = [
      ("aplay", ["-q", "-t", "raw", "-f", "S16_LE", "-r", "\(playerRate)", "-c", "1", "-"]),
      ("paplay", ["--raw", "--format=s16le", "--rate=\(playerRate)", "--channels=1"]),
    ]
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for (name, arguments) in candidates {
      for folder in path.split(separator: ":") {
        let program = "\(folder)/\(name)"
        guard FileManager.default.isExecutableFile(atPath: program) else { continue }
        // A player that quits (Ctrl+C in it, no sound device) must end the speech with an error, not end Hearth
        // by SIGPIPE on the next write.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        return .player(process, pipe.fileHandleForWriting)
      }
    }
    throw ValidationError("no audio player (aplay or paplay) is installed; write the speech to a file with -o FILE")
  }
}
