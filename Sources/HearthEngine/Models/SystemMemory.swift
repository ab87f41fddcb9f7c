import Foundation

#if canImport(Darwin)
import Darwin
#endif

/// Memory as the system sees it: what this process holds, and what a new load may take.
public enum SystemMemory {
  /// Bytes of this process resident in memory now, when the system tells.
  public static func residentBytes() -> UInt64? {
    #if os(Linux)
    // statm: size resident shared … in pages.
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
    return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    #elseif canImport(Darwin)
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) {
      $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
        task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
      }
    }
    return result == KERN_SUCCESS ? UInt64(info.resident_size) : nil
    #else
    return nil
    #endif
  }

  /// The most this process has held resident since it started, when the system tells.
  public static func peakResidentBytes() -> UInt64? {
    var usage = rusage()
    #if os(Linux)
    let who = RUSAGE_SELF.rawValue
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
    #if canImport(Darwin)
    return UInt64(usage.ru_maxrss)  // bytes
    #else
    return UInt64(usage.ru_maxrss) * 1024  // kibibytes
    #endif
  }

  /// What a new allocation may take: the smaller of the system's available memory (`MemAvailable`) and
  /// what is left under this process's cgroup limit; the physical memory where neither can be read.
  public static func available() -> Available {
    #if os(Linux)
    let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
    let system = meminfo.split(separator: "\n").first { $0.hasPrefix("MemAvailable:") }
      .flatMap { UInt64($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 }
    let limit = cgroupRoom()
    switch (system, limit) {
    case (let system?, let limit?) where limit < system: return Available(bytes: limit, source: "cgroup limit")
    case (let system?, _): return Available(bytes: system, source: "MemAvailable")
    case (nil, let limit?): return Available(bytes: limit, source: "cgroup limit")
    default: break
    }
    #endif
    return Available(bytes: ProcessInfo.processInfo.physicalMemory, source: "physical memory")
  }

  /// The memory this machine has for Hearth: the physical memory, or the cgroup's limit where one is set
  /// lower (a container).
  public static func installedBytes() -> UInt64 {
    let physical = ProcessInfo.processInfo.physicalMemory
    #if os(Linux)
    let limit = (try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8))
      .flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    if let limit, limit < physical { return limit }
    #endif
    return physical
  }

  /// Memory a load may take, and where the figure came from.
  public struct Available: Sendable, Hashable, Encodable {
    public var bytes: UInt64
    /// `MemAvailable`, `cgroup limit` or `physical memory`.
    public var source: String
  }

  #if os(Linux)
  /// The cgroup v2 limit less the current usage, when a limit is set.
  private static func cgroupRoom() -> UInt64? {
    func read(_ name: String) -> UInt64? {
      (try? String(contentsOfFile: "/sys/fs/cgroup/\(name)", encoding: .utf8))
        .flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    guard let limit = read("memory.max") else { return nil }  // "max" reads as nil: no limit
    let used = read("memory.current") ?? 0
    return limit > used ? limit - used : 0
  }
  #endif
}
