import Foundation
import Hummingbird

/// The web app's files, read once from the module's resources and served from memory by fixed name:
/// there is no path from a URL to the file system, so no traversal is possible.
struct WebAssets: Sendable {
  struct Asset: Sendable {
    var data: ByteBuffer
    var contentType: String
  }

  private let assets: [String: Asset]

  static let files: [(route: String, file: String, type: String)] = [
    ("/", "index.html", "text/html; charset=utf-8"),
    ("/assets/app.js", "app.js", "text/javascript; charset=utf-8"),
    ("/assets/markdown.js", "markdown.js", "text/javascript; charset=utf-8"),
    ("/assets/api.js", "api.js", "text/javascript; charset=utf-8"),
    ("/assets/pages.js", "pages.js", "text/javascript; charset=utf-8"),
    ("/assets/calendar.js", "calendar.js", "text/javascript; charset=utf-8"),
    ("/assets/lists.js", "lists.js", "text/javascript; charset=utf-8"),
    ("/assets/reminders.js", "reminders.js", "text/javascript; charset=utf-8"),
    ("/assets/records.js", "records.js", "text/javascript; charset=utf-8"),
    ("/assets/memory.js", "memory.js", "text/javascript; charset=utf-8"),
    ("/assets/actions.js", "actions.js", "text/javascript; charset=utf-8"),
    ("/assets/waiting.js", "waiting.js", "text/javascript; charset=utf-8"),
    ("/assets/toolservers.js", "toolservers.js", "text/javascript; charset=utf-8"),
    ("/assets/prompts.js", "prompts.js", "text/javascript; charset=utf-8"),
    ("/assets/reply.js", "reply.js", "text/javascript; charset=utf-8"),
    ("/assets/history.js", "history.js", "text/javascript; charset=utf-8"),
    ("/assets/attachments.js", "attachments.js", "text/javascript; charset=utf-8"),
    ("/assets/briefing.js", "briefing.js", "text/javascript; charset=utf-8"),
    ("/assets/notices.js", "notices.js", "text/javascript; charset=utf-8"),
    ("/assets/find.js", "find.js", "text/javascript; charset=utf-8"),
    ("/assets/diagnostics.js", "diagnostics.js", "text/javascript; charset=utf-8"),
    ("/assets/runtime.js", "runtime.js", "text/javascript; charset=utf-8"),
    ("/assets/pulls.js", "pulls.js", "text/javascript; charset=utf-8"),
    ("/assets/remote.js", "remote.js", "text/javascript; charset=utf-8"),
    ("/assets/voice.js", "voice.js", "text/javascript; charset=utf-8"),
    ("/assets/speaker.js", "speaker.js", "text/javascript; charset=utf-8"),
    ("/assets/handsfree.js", "handsfree.js", "text/javascript; charset=utf-8"),
    ("/assets/drawer.js", "drawer.js", "text/javascript; charset=utf-8"),
    ("/assets/highlight.js", "highlight.js", "text/javascript; charset=utf-8"),
    ("/assets/search.js", "search.js", "text/javascript; charset=utf-8"),
    ("/assets/state.js", "state.js", "text/javascript; charset=utf-8"),
    ("/assets/conversation.js", "conversation.js", "text/javascript; charset=utf-8"),
    ("/assets/turn.js", "turn.js", "text/javascript; charset=utf-8"),
    ("/assets/settings.js", "settings.js", "text/javascript; charset=utf-8"),
    ("/assets/models.js", "models.js", "text/javascript; charset=utf-8"),
    ("/assets/app.css", "app.css", "text/css; charset=utf-8"),
    ("/assets/icon.svg", "icon.svg", "image/svg+xml"),
    // Home-screen icons: Chromium installs from the PNG sizes, iOS takes its own square one.
    ("/assets/icon-192.png", "icon-192.png", "image/png"),
    ("/assets/icon-512.png", "icon-512.png", "image/png"),
    ("/apple-touch-icon.png", "apple-touch-icon.png", "image/png"),
    ("/manifest.webmanifest", "manifest.webmanifest", "application/manifest+json"),
  ]

  /// Loads the files; a missing one is an installation fault worth failing start-up for.
  static func load() throws -> WebAssets {
    var assets: [String: Asset] = [:]
    for entry in files {
      let name = (entry.file as NSString).deletingPathExtension
      let type = (entry.file as NSString).pathExtension
      guard let url = Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Web") else {
        throw APIError(.internalServerError, "the web app file \(entry.file) is missing from this installation")
      }
      assets[entry.route] = Asset(data: ByteBuffer(bytes: try Data(contentsOf: url)), contentType: entry.type)
    }
    return WebAssets(assets: assets)
  }

  func register<Context: RequestContext>(on router: Router<Context>) {
    for (route, asset) in assets {
      router.get(RouterPath(route)) { _, _ in
        Response(
          status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "no-cache"],
          body: ResponseBody(byteBuffer: asset.data))
      }
    }
  }
}
