import Foundation

/// What the machine's sensors say: its thermal zones and its power supply (Linux's `/sys/class/thermal` and
/// `/sys/class/power_supply`, where readable).
public struct MachineReadings: Sendable, Hashable, Codable {
  public struct Thermal: Sendable, Hashable, Codable {
    public var zone: String
    /// What the zone measures, as the kernel names it (`x86_pkg_temp`, `acpitz`, `cpu-thermal`).
    public var type: String
    public var celsius: Double

    public init(zone: String, type: String, celsius: Double) {
      self.zone = zone
      self.type = type
      self.celsius = celsius
    }
  }

  public struct Power: Sendable, Hashable, Codable {
    /// Running on a battery that is discharging.
    public var onBattery: Bool
    /// The battery's charge, when there is a battery.
    public var batteryPercent: Int?

    public init(onBattery: Bool, batteryPercent: Int?) {
      self.onBattery = onBattery
      self.batteryPercent = batteryPercent
    }
  }

  public var thermals: [Thermal]
  /// `nil` when no power supply is readable (most virtual machines).
  public var power: Power?

  public init(thermals: [Thermal], power: Power?) {
    self.thermals = thermals
    self.power = power
  }

  /// The hottest zone.
  public var hottest: Thermal? { thermals.max { $0.celsius < $1.celsius } }
}

/// When the machine is under strain: hotter than `hotCelsius` (until it is back below `coolCelsius`, so a
/// machine hovering at the limit does not flap), or on battery below `lowBatteryPercent`.
public struct MachineCareLimits: Sendable, Hashable, Codable {
  public var hotCelsius: Double
  public var coolCelsius: Double
  public var lowBatteryPercent: Int

  public init(hotCelsius: Double = 85, coolCelsius: Double = 75, lowBatteryPercent: Int = 20) {
    self.hotCelsius = hotCelsius
    self.coolCelsius = coolCelsius
    self.lowBatteryPercent = lowBatteryPercent
  }
}

/// How Hearth treats the machine now: while it is hot or on a low battery, local models run on half the
/// threads and background work (automations) waits; the reasons say why, for `hearth doctor` and Diagnostics.
public struct MachineCare: Sendable, Hashable, Codable {
  public var readings: MachineReadings
  /// Why Hearth is easing off; empty when it is not.
  public var reasons: [String]

  public var isEasing: Bool { !reasons.isEmpty }

  /// The threads a model should use out of `base` now.
  public func threads(base: Int) -> Int { isEasing ? max(1, base / 2) : base }

  /// Weighs the readings against the limits; `wasEasing` keeps a hot machine in care until it has cooled.
  public static func assess(
    _ readings: MachineReadings, limits: MachineCareLimits = MachineCareLimits(), wasEasing: Bool = false
  ) -> MachineCare {
    var reasons: [String] = []
    if let hottest = readings.hottest {
      let limit = wasEasing ? limits.coolCelsius : limits.hotCelsius
      if hottest.celsius >= limit {
        reasons.append(
          "\(hottest.type) at \(Int(hottest.celsius.rounded())) °C (eases below \(Int(limits.coolCelsius)) °C)")
      }
    }
    if let power = readings.power, power.onBattery, let percent = power.batteryPercent,
      percent < limits.lowBatteryPercent
    {
      reasons.append("on battery at \(percent) %")
    }
    return MachineCare(readings: readings, reasons: reasons)
  }
}
