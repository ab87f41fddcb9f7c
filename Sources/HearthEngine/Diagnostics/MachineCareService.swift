import Foundation
public import HearthCore
import Logging
public import ServiceLifecycle
import Synchronization

/// How Hearth treats the machine now, shared by the service that watches it and the work that eases off.
final class MachineCareState: Sendable {
  private let current = Mutex<MachineCare?>(nil)

  var care: MachineCare? { current.withLock { $0 } }

  /// Keeps `care`; returns whether easing off began or ended with it.
  func update(_ care: MachineCare) -> Bool {
    current.withLock { current in
      defer { current = care }
      return (current?.isEasing ?? false) != care.isEasing
    }
  }
}

extension Engine {
  /// Reads the sensors and weighs them (a machine in care stays in care until it has cooled); background work
  /// and the local model's threads follow the result.
  @discardableResult
  public func assessMachine() -> MachineCare {
    let care = MachineCare.assess(sensors.read(), wasEasing: careState.care?.isEasing ?? false)
    if careState.update(care) {
      if care.isEasing {
        logger.notice(
          "easing off: the machine is under strain", metadata: ["why": "\(care.reasons.joined(separator: "; "))"])
      } else {
        logger.notice("the machine is no longer under strain")
      }
    }
    return care
  }

  /// The last assessment of the machine, if one was made.
  public var machineCare: MachineCare? { careState.care }

  /// Whether background work (automations) should wait now.
  var pausesBackgroundWork: Bool { careState.care?.isEasing ?? false }

  /// A service that looks at the machine every `interval` and lowers the local model's threads while it is hot
  /// or on a low battery (restoring them after). Run it beside the server.
  public func machineCareService(every interval: Duration = .seconds(30)) -> MachineCareService {
    MachineCareService(engine: self, interval: interval)
  }
}

/// Watches the machine while `hearth serve` runs: see ``Engine/assessMachine()``.
public struct MachineCareService: Service {
  let engine: Engine
  let interval: Duration

  public func run() async throws {
    try await Periodic.run(every: interval) { await engine.easeModel(engine.assessMachine()) }
  }
}

extension Engine {
  /// Sets the loaded local model's threads to what the machine's care allows (its own count when at ease).
  func easeModel(_ care: MachineCare) async {
    guard let model = host?.loaded else { return }
    await model.useThreads(care.threads(base: model.threads))
  }
}
