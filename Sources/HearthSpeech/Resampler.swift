import Foundation

/// Changes a signal's sample rate with a windowed-sinc (Hann) interpolator.
///
/// When lowering the rate, the kernel is widened so it also filters out what the new rate cannot hold: a
/// 44.1 kHz recording brought to 16 kHz keeps no aliases of its 8–22 kHz content in the speech band. The
/// output samples fall on a repeating pattern of positions between input samples (160 of them from 44.1 to
/// 16 kHz), so the kernel is computed once per position, not once per sample.
public struct Resampler: Sendable {
  /// The input's rate.
  public let sourceRate: Int
  /// The output's rate.
  public let targetRate: Int
  /// Zero crossings of the sinc on each side of a sample, at the lower of the two rates.
  public let halfWidth: Int

  /// A resampler from `sourceRate` to `targetRate` (both positive).
  public init(from sourceRate: Int, to targetRate: Int, halfWidth: Int = 16) {
    precondition(sourceRate > 0 && targetRate > 0, "sample rates must be positive")
    self.sourceRate = sourceRate
    self.targetRate = targetRate
    self.halfWidth = halfWidth
  }

  /// `input` at the target rate.
  public func resample(_ input: [Float]) -> [Float] {
    guard sourceRate != targetRate, !input.isEmpty else { return input }
    let common = Self.gcd(sourceRate, targetRate)
    // Output sample i sits at input position i·down/up: integer part and one of `up` phases.
    let up = targetRate / common
    let down = sourceRate / common
    let cutoff = min(1.0, Double(targetRate) / Double(sourceRate))
    let reach = Int((Double(halfWidth) / cutoff).rounded(.up))
    let taps = 2 * reach + 1
    let phases = min(up, 8192)
    var table = [Float](repeating: 0, count: phases * taps)
    for phase in 0..<phases {
      let fraction = Double(phase) / Double(phases)
      for offset in -reach...reach {
        let distance = Double(offset) - fraction
        table[phase * taps + offset + reach] = Float(
          Self.kernel(distance * cutoff) * Self.window(distance / (Double(reach) + 1)))
      }
    }
    let count = Int(Int64(input.count) * Int64(up) / Int64(down))
    var output = [Float](repeating: 0, count: max(count, 1))
    input.withUnsafeBufferPointer { source in
      table.withUnsafeBufferPointer { weights in
        for index in output.indices {
          let position = Int64(index) * Int64(down)
          let base = Int(position / Int64(up))
          // With more phases than the table holds (rates with no small common divisor), the nearest is used.
          let phase = Int((position % Int64(up)) * Int64(phases) / Int64(up))
          let row = phase * taps
          let first = max(0, base - reach)
          let last = min(source.count - 1, base + reach)
          var sum: Float = 0
          var total: Float = 0
          var tap = first
          while tap <= last {
            let weight = weights[row + tap - base + reach]
            sum += source[tap] * weight
            total += weight
            tap += 1
          }
          // Normalising by the weights used keeps a constant signal constant at the clip's edges.
          output[index] = total != 0 ? sum / total : 0
        }
      }
    }
    return output
  }

  private static func gcd(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  private static func kernel(_ x: Double) -> Double {
    guard x != 0 else { return 1 }
    let angle = Double.pi * x
    return sin(angle) / angle
  }

  private static func window(_ position: Double) -> Double {
    guard abs(position) < 1 else { return 0 }
    return 0.5 * (1 + cos(Double.pi * position))
  }
}
