public import Foundation
public import HearthCore

/// Reads the machine's thermal zones and power supply from sysfs under `root` (`/sys`; a test points it at a
/// tree of its own). What cannot be read is left out: a machine with no sensors reads as none.
public struct MachineSensors: Sendable {
  public let root: URL

  public init(root: URL = URL(fileURLWithPath: "/sys")) {
    self.root = root
  }

  public func read() -> MachineReadings {
    MachineReadings(thermals: thermals(), power: power())
  }

  private func entries(_ path: String, prefix: String = "") -> [URL] {
    let folder = root.appendingPathComponent(path, isDirectory: true)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) }.sorted().map { folder.appendingPathComponent($0) }
  }

  private func value(_ folder: URL, _ name: String) -> String? {
    (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private func thermals() -> [MachineReadings.Thermal] {
    entries("class/thermal", prefix: "thermal_zone").compactMap { zone in
      // Millidegrees Celsius; a zone that reads nothing sensible (disabled, -273 °C) is left out.
      guard let text = value(zone, "temp"), let milli = Double(text), milli > -50_000, milli < 200_000 else {
        return nil
      }
      return MachineReadings.Thermal(
        zone: zone.lastPathComponent, type: value(zone, "type") ?? zone.lastPathComponent, celsius: milli / 1000)
    }
  }

  private func power() -> MachineReadings.Power? {
    var sawSupply = false
    var mainsOnline = false
    var discharging = false
    var percent: Int?
    for supply in entries("class/power_supply") {
      guard let type = value(supply, "type") else { continue }
      sawSupply = true
      switch type {
      case "Mains", "USB": if value(supply, "online") == "1" { mainsOnline = true }
      case "Battery":
        if value(supply, "status") == "Discharging" { discharging = true }
        if let capacity = value(supply, "capacity").flatMap(Int.init) { percent = min(percent ?? 100, capacity) }
      default: continue
      }
    }
    guard sawSupply else { return nil }
    return MachineReadings.Power(onBattery: discharging && !mainsOnline, batteryPercent: percent)
  }
}
