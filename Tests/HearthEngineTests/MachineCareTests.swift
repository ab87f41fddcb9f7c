import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite(
  "Care for the machine: sensors read from a sysfs tree of the test's own, and what Hearth does about them", .heavy)
struct MachineCareTests {
  /// Writes a sysfs tree: thermal zones (type, millidegrees) and power supplies (their files).
  static func sysfs(
    zones: [(String, String)], supplies: [String: [String: String]] = [:]
  ) throws -> URL {
    let root = try TestModels.temporaryDirectory()
    for (index, (type, milli)) in zones.enumerated() {
      let zone = root.appendingPathComponent("class/thermal/thermal_zone\(index)")
      try FileManager.default.createDirectory(at: zone, withIntermediateDirectories: true)
      try "\(type)\n".write(to: zone.appendingPathComponent("type"), atomically: true, encoding: .utf8)
      try "\(milli)\n".write(to: zone.appendingPathComponent("temp"), atomically: true, encoding: .utf8)
    }
    // A cooling device beside the zones is not one.
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("class/thermal/cooling_device0"), withIntermediateDirectories: true)
    for (name, files) in supplies {
      let supply = root.appendingPathComponent("class/power_supply/\(name)")
      try FileManager.default.createDirectory(at: supply, withIntermediateDirectories: true)
      for (file, value) in files {
        try "\(value)\n".write(to: supply.appendingPathComponent(file), atomically: true, encoding: .utf8)
      }
    }
    return root
  }

  @Test func theSensorsAreReadAndWeighed() throws {
    let root = try Self.sysfs(
      zones: [("acpitz", "45500"), ("x86_pkg_temp", "92000"), ("disabled", "-273000")],
      supplies: [
        "AC": ["type": "Mains", "online": "0"],
        "BAT0": ["type": "Battery", "status": "Discharging", "capacity": "14"],
      ])
    defer { try? FileManager.default.removeItem(at: root) }
    let readings = MachineSensors(root: root).read()
    #expect(readings.thermals.map(\.type) == ["acpitz", "x86_pkg_temp"])
    #expect(readings.hottest?.celsius == 92)
    #expect(readings.power == MachineReadings.Power(onBattery: true, batteryPercent: 14))
    let care = MachineCare.assess(readings)
    #expect(care.reasons == ["x86_pkg_temp at 92 °C (eases below 75 °C)", "on battery at 14 %"])
    #expect(care.threads(base: 4) == 2 && care.threads(base: 1) == 1)
  }

  @Test func aHotMachineStaysInCareUntilItHasCooled() {
    let warm = MachineReadings(thermals: [.init(zone: "z", type: "cpu", celsius: 80)], power: nil)
    #expect(!MachineCare.assess(warm).isEasing)
    #expect(MachineCare.assess(warm, wasEasing: true).isEasing)
    let cool = MachineReadings(thermals: [.init(zone: "z", type: "cpu", celsius: 74)], power: nil)
    #expect(!MachineCare.assess(cool, wasEasing: true).isEasing)
    let charging = MachineReadings(thermals: [], power: .init(onBattery: false, batteryPercent: 5))
    #expect(!MachineCare.assess(charging).isEasing)
  }

  @Test func aMachineWithNoSensorsIsAtEase() throws {
    let root = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let readings = MachineSensors(root: root).read()
    #expect(readings.thermals.isEmpty && readings.power == nil)
    #expect(!MachineCare.assess(readings).isEasing)
  }

  @Test func theEngineEasesOffAndTheDoctorSaysSo() async throws {
    let root = try Self.sysfs(zones: [("x86_pkg_temp", "95000")])
    let home = try TestModels.temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: root)
      try? FileManager.default.removeItem(at: home)
    }
    var configuration = EngineConfiguration(paths: HearthPaths(home: home), environment: [:])
    configuration.sensorsRoot = root
    let engine = try await Engine.open(configuration)
    #expect(engine.assessMachine().isEasing)
    #expect(engine.machineCare?.isEasing == true)
    let report = try await engine.doctor()
    #expect(report.machine.care.isEasing)
    #expect(report.text.contains("95 °C (x86_pkg_temp, the hottest of 1)"))
    #expect(report.text.contains("easing off"))
    // Cooled down: at ease again.
    try "60000\n".write(
      to: root.appendingPathComponent("class/thermal/thermal_zone0/temp"), atomically: true, encoding: .utf8)
    #expect(!engine.assessMachine().isEasing)
  }

  @Test func hearthDoctorReadsTheSensorsItIsPointedAt() async throws {
    let root = try Self.sysfs(
      zones: [("cpu-thermal", "88000")],
      supplies: ["BAT0": ["type": "Battery", "status": "Charging", "capacity": "64"]])
    let home = try TestModels.temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: root)
      try? FileManager.default.removeItem(at: home)
    }
    let doctor = try await CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_SYSFS_ROOT": root.path])
      .run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.standardError)")
    #expect(doctor.standardOutput.contains("88 °C (cpu-thermal, the hottest of 1)"))
    #expect(doctor.standardOutput.contains("on mains (battery at 64 %)"))
    #expect(doctor.standardOutput.contains("easing off (cpu-thermal at 88 °C"))
  }
}
