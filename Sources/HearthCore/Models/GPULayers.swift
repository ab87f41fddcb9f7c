import Foundation

/// How many of a model's layers run on a GPU: `auto` chooses from the device's free memory, a number asks for
/// that many (0 keeps the model on the CPU; more than the model has offloads all of it, output layer included).
///
/// Written as `"auto"` or a number, in settings files, the API (`gpu_layers`) and on the command line
/// (`--gpu-layers N|auto`).
public enum GPULayers: Sendable, Hashable, Codable, CustomStringConvertible {
  case auto
  case count(Int)

  /// The most layers that can be asked for; llama.cpp offloads at most the model's layers plus its output.
  public static let maxCount = 999

  /// Reads `auto` or a number from 0 to ``maxCount``.
  /// - Throws: ``InvalidParameterError`` naming `parameter` for anything else.
  public init(parsing text: String, parameter: String = "gpu_layers") throws(InvalidParameterError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.lowercased() == "auto" {
      self = .auto
    } else if let count = Int(trimmed) {
      self = try Self.checked(count, parameter: parameter)
    } else {
      throw Self.refusal(parameter: parameter, value: text)
    }
  }

  /// `.count(count)` when `count` is in range.
  /// - Throws: ``InvalidParameterError`` naming `parameter`.
  public static func checked(_ count: Int, parameter: String = "gpu_layers") throws(InvalidParameterError) -> GPULayers
  {
    guard (0...maxCount).contains(count) else { throw refusal(parameter: parameter, value: "\(count)") }
    return .count(count)
  }

  private static func refusal(parameter: String, value: String) -> InvalidParameterError {
    InvalidParameterError(name: parameter, value: value, expected: "auto, or 0 to \(maxCount) layers")
  }

  public var description: String {
    switch self {
    case .auto: "auto"
    case .count(let count): "\(count)"
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let count = try? container.decode(Int.self) {
      do {
        self = try Self.checked(count)
      } catch {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
      }
      return
    }
    let text = try container.decode(String.self)
    guard text == "auto" else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "gpu_layers must be \"auto\" or 0 to \(Self.maxCount), not \"\(text)\"")
    }
    self = .auto
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .auto: try container.encode("auto")
    case .count(let count): try container.encode(count)
    }
  }
}

/// The choice `auto` makes: as many layers as fit in the GPU's free memory, kept clear of a reserve for the
/// compute buffers and whatever else the device runs.
public enum GPUOffloadPlan {
  /// Memory left free on the device: a tenth of its free memory, at least 256 MiB.
  public static func reserve(freeBytes: UInt64) -> UInt64 { max(256 << 20, freeBytes / 10) }

  /// Layers to offload for a model of `layerCount` repeating layers whose weights take `weightBytes` and whose
  /// KV cache at the chosen context takes `kvCacheBytes`, on devices with `freeBytes` free in all. The output
  /// layer counts as one more layer (llama.cpp offloads it once every repeating layer is on the GPU); the
  /// weights are taken as spread evenly, which slightly overstates the repeating layers' share.
  public static func layers(
    layerCount: Int, weightBytes: UInt64, kvCacheBytes: UInt64, freeBytes: UInt64
  ) -> Int {
    guard layerCount > 0, freeBytes > reserve(freeBytes: freeBytes) else { return 0 }
    let usable = freeBytes - reserve(freeBytes: freeBytes)
    let slots = UInt64(layerCount + 1)
    // Each repeating layer holds its share of the weights and of the KV cache; the output layer only weights.
    let perLayer = weightBytes / slots + kvCacheBytes / UInt64(layerCount)
    guard perLayer > 0 else { return layerCount + 1 }
    return min(layerCount + 1, Int(usable / perLayer))
  }
}
