/// How risky proposed settings are, before they are applied: whether the model still fits in the memory the
/// machine has, and whether an answer of the chat's length still fits in one window after the instructions.
public struct RuntimeRisk: Sendable, Hashable, Encodable {
  public enum Level: String, Sendable, Hashable, Encodable, Comparable {
    case low, medium, high

    private var rank: Int {
      switch self {
      case .low: 0
      case .medium: 1
      case .high: 2
      }
    }
    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }

    /// The level as the page and the command line say it: low, some or high.
    public var word: String {
      switch self {
      case .low: "low"
      case .medium: "some"
      case .high: "high"
      }
    }
  }

  /// The higher of ``memory`` and ``answers``.
  public var level: Level
  public var memory: Level
  public var answers: Level
  /// What raises the risk, in words; empty when it is low.
  public var reasons: [String]
  /// Memory a load may take with these settings: what the system has available, plus what the model in
  /// memory now would give back when it reloads.
  public var roomBytes: UInt64
  /// The longest answer the chat settings ask for, in tokens.
  public var answerTokens: Int
  /// Hearth's instructions as the next turn would get them, in the model's tokens.
  public var instructionTokens: Int

  enum CodingKeys: String, CodingKey {
    case level, memory, answers, reasons
    case roomBytes = "room_bytes"
    case answerTokens = "answer_tokens"
    case instructionTokens = "instruction_tokens"
  }

  /// The risk of going from `current` to `proposed` with `roomBytes` of memory to load in, answers of up to
  /// `answerTokens` and instructions of `instructionTokens`.
  public static func assess(
    from current: RuntimeImpact.Side, to proposed: RuntimeImpact.Side, roomBytes: UInt64, answerTokens: Int,
    instructionTokens: Int
  ) -> RuntimeRisk {
    var reasons: [String] = []
    let share = Double(proposed.estimatedBytes) / Double(max(roomBytes, 1))
    let memory: Level
    if share >= 0.8 {
      memory = .high
      reasons.append(
        "the model would take \(mib(proposed.estimatedBytes)) of the \(mib(roomBytes)) available: it may not load, "
          + "or leave the machine swapping")
    } else if share >= 0.5 {
      memory = .medium
      reasons.append(
        "the model would take \(mib(proposed.estimatedBytes)) of the \(mib(roomBytes)) available, "
          + "leaving little for the rest of the machine")
    } else {
      memory = .low
    }
    let answers: Level
    let needed = instructionTokens + answerTokens
    if proposed.contextSize < needed {
      answers = .high
      reasons.append(
        "a window of \(proposed.contextSize) tokens does not hold the instructions (\(instructionTokens)) and an "
          + "answer of up to \(answerTokens) tokens: answers would be cut short")
    } else if proposed.contextSize < current.contextSize, proposed.contextSize < needed * 2 {
      answers = .medium
      reasons.append(
        "a window of \(proposed.contextSize) tokens (now \(current.contextSize)) leaves room for little of the "
          + "conversation besides the instructions and the answer: earlier turns are summarised sooner")
    } else {
      answers = .low
    }
    return RuntimeRisk(
      level: max(memory, answers), memory: memory, answers: answers, reasons: reasons, roomBytes: roomBytes,
      answerTokens: answerTokens, instructionTokens: instructionTokens)
  }

  private static func mib(_ bytes: UInt64) -> String { "\(bytes / 1_048_576) MiB" }
}
