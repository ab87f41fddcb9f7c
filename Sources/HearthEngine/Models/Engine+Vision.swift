import Foundation
public import HearthCore
import HearthStore
import LlamaKit

/// The vision projector as the Models page shows it.
public struct VisionProjectorView: Sendable, Hashable, Encodable {
  /// The projector in use; absent when images are read by OCR.
  public var path: String?
  /// `environment` (`$HEARTH_MMPROJ`), `profile` (chosen on the Models page) or `none`.
  public var source: String
  /// Projector files in the models folder (named `mmproj` as llama.cpp's converter names them), to choose from.
  public var candidates: [String]
}

/// A projector that cannot be used: a missing file, no GGUF, or a GGUF with no vision or audio input.
public struct VisionProjectorError: Error, Sendable, Hashable, CustomStringConvertible, CategorizedError {
  public var description: String
  public var category: ErrorCategory { ErrorCategory(.invalid, parameter: "path") }
}

extension Engine {
  static let visionProjectorKey = "vision_projector"

  /// The projector a new engine reads images with: `$HEARTH_MMPROJ` (the configuration's), else the one chosen
  /// in the profile, else none.
  static func initialProjector(_ configuration: EngineConfiguration, database: HearthDatabase) -> ProjectorState {
    if let given = configuration.visionProjector { return .init(path: given, source: "environment") }
    let stored =
      configuration.logger.attempt("reading the chosen vision projector") {
        try database.setting(visionProjectorKey, as: String.self)
      } ?? nil
    return stored.map { .init(path: $0, source: "profile") } ?? .init(path: nil, source: "none")
  }

  /// The projector in use and the ones in the models folder.
  public func visionProjectorView() -> VisionProjectorView {
    let chosen = projector.current
    let files = (try? FileManager.default.contentsOfDirectory(atPath: paths.models.path)) ?? []
    let candidates = files.filter { $0.lowercased().hasSuffix(".gguf") && $0.lowercased().contains("mmproj") }.sorted()
      .map { paths.models.appendingPathComponent($0).path }
    return VisionProjectorView(path: chosen.path, source: chosen.source, candidates: candidates)
  }

  /// Checks that `path` is a projector llama.cpp can read (a GGUF with vision or audio input) and reads the next
  /// attached images with it.
  /// - Throws: ``VisionProjectorError`` naming why the file cannot be used; `StoreError` when saving fails.
  @discardableResult
  public func setVisionProjector(path: String) throws -> VisionProjectorView {
    // Saved whole, so that a server started from another folder finds it.
    let trimmed = URL(fileURLWithPath: path.trimmingCharacters(in: .whitespacesAndNewlines)).standardizedFileURL.path
    let capabilities: VisionProjector.Capabilities
    do {
      capabilities = try VisionProjector.capabilities(ofFile: trimmed)
    } catch {
      throw VisionProjectorError(description: "\(error)")
    }
    guard capabilities.vision else {
      throw VisionProjectorError(description: "\(trimmed) takes sound, not images: choose a vision projector")
    }
    try projector.change(to: .init(path: trimmed, source: "profile")) {
      try database.setSetting(Self.visionProjectorKey, to: trimmed)
    }
    return visionProjectorView()
  }

  /// Forgets the chosen projector: images are read by OCR (until a restart reads `$HEARTH_MMPROJ`, if set).
  @discardableResult
  public func clearVisionProjector() throws -> VisionProjectorView {
    try projector.change(to: .init(path: nil, source: "none")) { try database.removeSetting(Self.visionProjectorKey) }
    return visionProjectorView()
  }
}
