import AsyncHTTPClient
import Foundation
import LlamaKit
import NIOCore
import NIOHTTP1

/// Downloads a model into the models folder: resumed with HTTP ranges after an interruption, its SHA-256
/// computed while the bytes arrive, moved into place only once the hash matches and the header is valid.
///
/// Unfinished downloads live in the folder's `.partial` subfolder under their expected hash, so they are
/// never listed as installed, and any URL serving the same bytes continues them.
public struct ModelDownloader: Sendable {
  /// Where models are installed.
  public let registry: ModelRegistry
  /// Transfers tried in one pull before giving up (each resumes where the last stopped).
  public var attempts: Int
  /// Redirects followed at most.
  public var maximumRedirects: Int
  /// Free bytes on the file system of a folder; injected so a full disk can be tested.
  public var freeSpace: @Sendable (String) -> UInt64?
  /// Where the pull may connect (the URL and every redirect).
  public var destination: PullDestination
  /// Room kept free beyond the model itself.
  static let spaceMargin: UInt64 = 16 << 20

  /// Creates a downloader into `registry`'s folder.
  public init(
    registry: ModelRegistry, attempts: Int = 3, maximumRedirects: Int = 5,
    destination: PullDestination = PullDestination(allowsPrivateNetwork: false),
    freeSpace: @escaping @Sendable (String) -> UInt64? = ModelDownloader.systemFreeSpace
  ) {
    self.destination = destination
    self.registry = registry
    self.attempts = max(1, attempts)
    self.maximumRedirects = maximumRedirects
    self.freeSpace = freeSpace
  }

  /// Free bytes on the file system holding `path`, as the system reports them.
  public static func systemFreeSpace(_ path: String) -> UInt64? {
    let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
    return (attributes?[.systemFreeSize] as? NSNumber)?.uint64Value
  }

  /// Downloads `url`, checks it has `sha256` and installs it as a model named `name` (by default the URL's
  /// file name without `.gguf`).
  /// - Returns: the installed model, verified.
  /// - Throws: a ``ModelDownloadError``; nothing is installed then, and an interrupted transfer's bytes are
  ///   kept for the next attempt.
  public func pull(
    url: String, sha256: String, name: String? = nil,
    progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
  ) async throws -> RegisteredModel {
    guard let parsed = URL(webAddress: url) else { throw ModelDownloadError.invalidURL(url) }
    guard SHA256Digest.isValidHex(sha256) else { throw ModelDownloadError.invalidHash(sha256) }
    try await destination.check(parsed)
    let hash = sha256.lowercased()
    let target = try target(for: parsed, name: name, sha256: hash)
    if let installed = try alreadyInstalled(target) { return installed }

    let partialFolder = registry.folder.appendingPathComponent(".partial", isDirectory: true)
    let partial = partialFolder.appendingPathComponent("\(hash).part").path
    let lockPath = partialFolder.appendingPathComponent("\(hash).lock").path
    let lock = try PartialLock(path: lockPath, file: target.fileName)
    defer { lock.release() }

    var transfer = try PartialTransfer(path: partial)
    var lastError: ModelDownloadError?
    for _ in 0..<attempts {
      do {
        try await fetch(parsed, into: &transfer, progress: progress)
        lastError = nil
        break
      } catch let error as ModelDownloadError {
        guard case .interrupted = error else { throw error }
        lastError = error
      }
    }
    if let lastError { throw lastError }
    let model = try install(partial: partial, digest: transfer.digest.hex(), expected: hash, target: target)
    try? FileManager.default.removeItem(atPath: lockPath)
    return model
  }

  // MARK: Steps

  /// The entry the download will install: a bundled one when the hash is a bundled model's.
  private func target(for url: URL, name: String?, sha256: String) throws -> ModelEntry {
    if let bundled = BundledModels.entries.first(where: { $0.sha256 == sha256 }) { return bundled }
    let fileName: String
    let id: String
    if let name {
      guard let safe = ModelFileName.sanitized(name), ModelFileName.stem(safe) == ModelFileName.stem(name) else {
        throw ModelDownloadError.invalidName(name)
      }
      (fileName, id) = (safe, ModelFileName.stem(safe))
    } else {
      guard let safe = ModelFileName.sanitized(url.lastPathComponent.isEmpty ? "model" : url.lastPathComponent)
      else { throw ModelDownloadError.invalidName(url.lastPathComponent) }
      (fileName, id) = (safe, ModelFileName.stem(safe))
    }
    if BundledModels.entries.contains(where: { $0.id == id || $0.fileName == fileName }) {
      throw ModelDownloadError.registry(.duplicate(id: id, file: fileName))
    }
    return ModelEntry(
      id: id, displayName: id, role: .chat, fileName: fileName, sha256: sha256, source: url.absoluteString)
  }

  /// The model, when a file with the expected hash is already installed under the target's name.
  private func alreadyInstalled(_ target: ModelEntry) throws -> RegisteredModel? {
    let path = registry.path(of: target)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let existing = try? SHA256Digest.ofFile(path).hex()
    guard existing == target.sha256 else { throw ModelDownloadError.conflict(file: target.fileName) }
    try register(target, path: path)
    do {
      return try registry.usable(target.id, role: registry.entry(named: target.id).role)
    } catch {
      throw ModelDownloadError.registry(error)
    }
  }

  /// One transfer: from where the partial file ends to the end of the file, following redirects only to
  /// where ``destination`` allows.
  private func fetch(
    _ url: URL, into transfer: inout PartialTransfer, progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.timeout = .init(connect: .seconds(15), read: .seconds(60))
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
      var current = url
      var visited: Set<String> = []
      var outcome = PartialTransfer.Outcome.redirect(url)
      while case .redirect(let next) = outcome {
        guard visited.count <= maximumRedirects, visited.insert(next.absoluteString).inserted else {
          throw ModelDownloadError.tooManyRedirects(url: url.absoluteString)
        }
        current = next
        try await destination.check(current)
        outcome = try await transfer.receive(
          from: current, client: client, freeSpace: { freeSpace(registry.folder.path) }, progress: progress)
      }
      try await client.shutdown()
    } catch {
      try? await client.shutdown()
      throw error
    }
  }

  /// Checks the finished file and moves it into place.
  private func install(
    partial: String, digest: String, expected: String, target: ModelEntry
  ) throws -> RegisteredModel {
    guard digest == expected else {
      try? FileManager.default.removeItem(atPath: partial)
      throw ModelDownloadError.hashMismatch(expected: expected, actual: digest)
    }
    let header = ModelCatalog.describe(path: partial, id: target.id)
    if let problem = header.problem {
      try? FileManager.default.removeItem(atPath: partial)
      throw ModelDownloadError.notAModel(problem)
    }
    let destination = registry.path(of: target)
    // rename(2) replaces atomically: a reader sees no file or the whole, verified one.
    guard rename(partial, destination) == 0 else {
      throw ModelDownloadError.storage(path: destination, detail: String(cString: strerror(errno)))
    }
    try register(target, path: destination)
    do {
      return try registry.usable(target.id, role: registry.entry(named: target.id).role)
    } catch {
      throw ModelDownloadError.registry(error)
    }
  }

  private func register(_ target: ModelEntry, path: String) throws(ModelDownloadError) {
    do {
      if !registry.isBundled(target) {
        var entry = target
        let header = try? GGUFReader.read(path: path)
        entry.role = ModelRegistry.role(of: header)
        entry.displayName = header?.name ?? target.id
        entry.sizeBounds = FileFacts(path: path).map { $0.size...$0.size }
        try registry.register(entry)
      }
      if let hash = target.sha256 { try registry.recordVerification(of: target, sha256: hash) }
    } catch {
      throw ModelDownloadError.registry(error)
    }
  }
}

/// An exclusive lock on one unfinished download, so two pulls of the same file never write it at once.
private struct PartialLock {
  let descriptor: Int32

  init(path: String, file: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw ModelDownloadError.storage(path: folder, detail: "\(error)")
    }
    descriptor = open(path, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0 else { throw ModelDownloadError.storage(path: path, detail: "cannot open the lock") }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw ModelDownloadError.busy(file: file)
    }
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
