public import Foundation
import HearthCore
import Logging
public import ServiceLifecycle

/// Looks for notices every `interval` while `hearth serve` runs, so they are recorded when they fire whether or
/// not a screen is open, and tells the desktop of each new one when `notify-send` is there, and every browser
/// that asked for notifications (Web Push). It runs in the
/// service group beside the server and stops when the group shuts down.
public struct NoticeScheduler: Service {
  let notices: NoticeService
  let interval: Duration
  let desktop: DesktopNotifier?
  /// The browsers that asked for notifications, reached through their push services.
  let push: PushService?
  let logger: Logger

  public func run() async throws {
    try await Periodic.run(every: interval) {
      do {
        let fresh = try notices.check().filter { $0.deliveredAt == nil }
        for notice in fresh {
          do {
            try desktop?.show(notice)
          } catch {
            logger.info("the desktop could not show a notice", metadata: ["error": "\(type(of: error))"])
          }
        }
        try notices.markDelivered(fresh)
        // Each notice to every browser at once (a slow push service holds up none of the others); the next look
        // waits for them, so a notice is never pushed twice.
        if let push {
          await withTaskGroup(of: Void.self) { group in
            for notice in fresh { group.addTask { await push.send(PushNotice(notice)) } }
          }
        }
      } catch {
        // A locked or failing database is tried again at the next look; the notices wait in their data.
        logger.warning("looking for notices failed", metadata: ["error": "\(type(of: error))"])
      }
    }
  }
}

/// The desktop's own notifications, through `notify-send` (libnotify) where it is installed.
public struct DesktopNotifier: Sendable {
  let program: URL

  /// The notifier, when `notify-send` is on the `PATH`.
  public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> DesktopNotifier? {
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return folders.map { URL(fileURLWithPath: String($0)).appendingPathComponent("notify-send") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
      .map(DesktopNotifier.init(program:))
  }

  /// Shows one notice; a desktop that cannot show it changes nothing else.
  func show(_ notice: Notice) throws {
    let process = Process()
    process.executableURL = program
    process.arguments = ["--app-name=Hearth", notice.title, notice.detail]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }
}

extension Engine {
  /// A service that records notices as they fire, looking every `interval`. Run it beside the server.
  public func noticeScheduler(every interval: Duration = .seconds(15)) -> NoticeScheduler {
    NoticeScheduler(notices: notices, interval: interval, desktop: DesktopNotifier.find(), push: push, logger: logger)
  }
}
