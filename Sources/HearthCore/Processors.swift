import Foundation

/// How many CPUs this process may run on: what a default thread count should be.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's CPUs, but a process pinned to some of them (`taskset`,
/// a container's cpuset) or given a CPU quota (cgroup v2 `cpu.max`) gets fewer; llama.cpp's and whisper.cpp's
/// worker threads spin while they wait for each other, so more threads than CPUs is much slower than as many.
public enum Processors {
  /// The CPUs this process may use: the machine's, narrowed by its affinity and its CPU quota where the system
  /// says (Linux), at least 1.
  public static let available: Int = {
    var count = ProcessInfo.processInfo.activeProcessorCount
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let allowed = affinityCount(status: status)
    {
      count = min(count, allowed)
    }
    if let quota = quotaCount(cgroups: try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) {
      count = min(count, quota)
    }
    #endif
    return max(1, count)
  }()

  /// The CPUs listed on the `Cpus_allowed_list:` line of `/proc/self/status` ("0-3,8,10-11" → 7).
  static func affinityCount(status: String) -> Int? {
    guard
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
      let list = line.split(separator: ":", maxSplits: 1).last
    else { return nil }
    var count = 0
    for range in list.split(separator: ",") {
      let bounds = range.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
      switch bounds.count {
      case 1:
        guard bounds[0] != nil else { return nil }
        count += 1
      case 2:
        guard let low = bounds[0], let high = bounds[1], high >= low else { return nil }
        count += high - low + 1
      default: return nil
      }
    }
    return count > 0 ? count : nil
  }

  /// The whole CPUs a cgroup v2 quota gives ("150000 100000" → 2); `nil` without a quota.
  static func quotaCount(cpuMax: String) -> Int? {
    let fields = cpuMax.split(whereSeparator: \.isWhitespace)
    guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0
    else { return nil }
    return max(1, Int((quota / period).rounded(.up)))
  }

  private static func quotaCount(cgroups: String?) -> Int? {
    // cgroup v2 names the process's group on a line "0::/path".
    guard let cgroups, let line = cgroups.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else {
      return nil
    }
    let path = "/sys/fs/cgroup" + line.dropFirst(3) + "/cpu.max"
    return (try? String(contentsOfFile: path, encoding: .utf8)).flatMap(quotaCount(cpuMax:))
  }
}
