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

  /// Each kind of file the web app is made of, by its extension; a file of any other kind in the folder fails
  /// start-up rather than being served with a guessed type.
  static let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml", "png": "image/png", "webmanifest": "application/manifest+json",
  ]

  /// Where a file is served: the page at `/`, the files a browser looks for at the top (the manifest, the iOS
  /// icon) there, and everything else under `/assets/`.
  static func route(of file: String) -> String {
    switch file {
    case "index.html": "/"
    // The service worker controls the pages under its own folder, so it is served from the top.
    case "manifest.webmanifest", "apple-touch-icon.png", "sw.js": "/\(file)"
    default: "/assets/\(file)"
    }
  }

  /// The web app's files as the module carries them: every file of its `Web` folder, so a new one is served
  /// without being listed by hand.
  static func files(in folder: URL) throws -> [(route: String, file: String, type: String)] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw APIError(.internalServerError, "the web app's files cannot be read from this installation: \(error)")
    }
    return try names.sorted().filter { !$0.hasPrefix(".") }.map { name in
      guard let type = contentTypes[(name as NSString).pathExtension] else {
        throw APIError(.internalServerError, "the web app file \(name) is of no kind Hearth serves")
      }
      return (route(of: name), name, type)
    }
  }

  /// Loads the files; a missing folder, or a file of an unknown kind, is an installation fault worth failing
  /// start-up for.
  static func load() throws -> WebAssets {
    guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil) else {
      throw APIError(.internalServerError, "the web app's files are missing from this installation")
    }
    var assets: [String: Asset] = [:]
    for entry in try files(in: folder) {
      let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
      assets[entry.route] = Asset(data: ByteBuffer(bytes: data), contentType: entry.type)
    }
    guard assets["/"] != nil, assets["/assets/app.js"] != nil else {
      throw APIError(.internalServerError, "the web app's page is missing from this installation")
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
