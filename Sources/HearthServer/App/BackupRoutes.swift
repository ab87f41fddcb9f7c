import Foundation
import HearthEngine
import Hummingbird

/// The Settings page's backups: the schedule and where backups go, the backups there, and one taken now.
/// Restoring needs `hearth serve` stopped (`hearth restore`), so it is not offered here.
struct BackupRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var backups: BackupService { dependencies.engine.backups }

  var paths: [RouterPath] { ["/api/backups"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { _, _ in try AppJSON.make(try view()) }
    router.put("settings") { request, _ in
      let input = try await RequestReader.decodeStrict(
        BackupSettingsInput.self, from: request, limit: configuration.maxBodyBytes)
      try backups.save(input.applied(to: try backups.settings()))
      return try AppJSON.make(try view())
    }
    router.post { request, _ in
      // It takes the saved settings: a body asking for anything else is refused, not ignored.
      let body = try await RequestReader.bytes(of: request, limit: configuration.maxBodyBytes)
      let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard text.isEmpty || text == "{}" else {
        throw APIError.invalidRequest(
          "a backup now takes the saved settings and no body; change them with PUT /api/backups/settings",
          parameter: "body")
      }
      return try AppJSON.make(try await backups.takeNow(), status: .created)
    }
  }

  private func view() throws -> BackupsView {
    let (running, last) = backups.status()
    return BackupsView(
      settings: try backups.settings(), folder: try backups.folder().path, backups: try backups.list(),
      running: running, last: last)
  }
}

struct BackupsView: Encodable {
  var settings: BackupSettings
  /// The folder backups go into, spelled out when the settings leave it to the default.
  var folder: String
  var backups: [BackupSummary]
  var running: Bool
  var last: BackupOutcome?
}

/// A change to the backup settings: fields left out stay as they are; an empty `folder` or `passphraseFile`
/// goes back to the default (the profile's `backups` folder, no encryption).
struct BackupSettingsInput: StrictInput {
  var scheduled: Bool?
  var everyHours: Double?
  var folder: String?
  var passphraseFile: String?
  var includesPasswords: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case scheduled, everyHours = "every_hours", folder, passphraseFile = "passphrase_file", includesPasswords =
      "includes_passwords"
  }

  func applied(to current: BackupSettings) -> BackupSettings {
    var settings = current
    if let scheduled { settings.scheduled = scheduled }
    if let everyHours { settings.everyHours = everyHours }
    if let folder { settings.folder = folder.isEmpty ? nil : folder }
    if let passphraseFile { settings.passphraseFile = passphraseFile.isEmpty ? nil : passphraseFile }
    if let includesPasswords { settings.includesPasswords = includesPasswords }
    return settings
  }
}
