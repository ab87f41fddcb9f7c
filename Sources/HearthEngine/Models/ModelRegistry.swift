public import Foundation
import HearthCore
import LlamaKit

/// The models Hearth knows: the bundled catalogue, the user's own entries (models they pulled) and any other
/// `.gguf` file in the models folder, with which one is chosen for each role. Only a model whose file is
/// there, within its size bounds, with a valid header and (when known) the right hash can be chosen.
///
/// The user's part lives in `registry.json` beside the files; several processes may change it at once, so
/// every change is a locked read-modify-write.
public struct ModelRegistry: Sendable {
  /// The models folder.
  public let folder: URL

  /// A registry over `folder`.
  public init(folder: URL) {
    self.folder = folder
  }

  /// The registry's own file.
  public var fileURL: URL { folder.appendingPathComponent("registry.json") }

  /// Every entry: bundled ones, the user's, then unregistered `.gguf` files in the folder (named by their stem,
  /// their role read from the header).
  /// - Throws: ``ModelRegistryError/unreadableRegistry(path:detail:)``.
  public func entries() throws(ModelRegistryError) -> [ModelEntry] {
    try entries(in: load())
  }

  /// Every entry with the state of its file; `hashing` verifies known hashes now (slow for big files).
  public func list(hashing: Bool = false) throws(ModelRegistryError) -> [RegisteredModel] {
    let file = try load()
    var stamps: [String: RegistryFile.Verification] = [:]
    let models = entries(in: file).map { entry in
      let outcome = ModelCheck.check(
        entry, at: path(of: entry), recorded: file.verified[entry.fileName], hashing: hashing)
      if let stamp = outcome.stamp { stamps[entry.fileName] = stamp }
      return registered(entry, outcome: outcome, file: file)
    }
    if !stamps.isEmpty { try? update { $0.verified.merge(stamps) { _, new in new } } }
    return models
  }

  /// The installed models (valid or not).
  public func installed() throws(ModelRegistryError) -> [RegisteredModel] {
    try list().filter(\.isInstalled)
  }

  /// The entry named `name`: by id, file name or file name without `.gguf`, exactly, then ignoring case.
  /// - Throws: ``ModelRegistryError/unknownModel(_:known:)``.
  public func entry(named name: String) throws(ModelRegistryError) -> ModelEntry {
    let all = try entries()
    let matches: (ModelEntry, Bool) -> Bool = { entry, folding in
      [entry.id, entry.fileName, ModelFileName.stem(entry.fileName)].contains {
        folding ? $0.caseInsensitiveCompare(name) == .orderedSame : $0 == name
      }
    }
    if let exact = all.first(where: { matches($0, false) }) ?? all.first(where: { matches($0, true) }) {
      return exact
    }
    throw .unknownModel(name, known: all.map(\.id))
  }

  /// Whether `name` names a file (a path, or a file that exists) rather than a registry entry.
  public static func isFilePath(_ name: String) -> Bool {
    name.contains("/") || FileManager.default.fileExists(atPath: name)
  }

  /// The file `name` means: itself when it is a path, else the file of the registry entry it names.
  public func file(named name: String) throws(ModelRegistryError) -> String {
    Self.isFilePath(name) ? name : path(of: try entry(named: name))
  }

  /// Checks the model named `name` fully, hashing its file, and records what was found.
  /// - Returns: the model as it stands, with ``RegisteredModel/status`` saying whether it is usable.
  public func verify(
    _ name: String, progress: (UInt64) -> Void = { _ in }
  ) throws(ModelRegistryError)
    -> (model: RegisteredModel, sha256: String?)
  {
    let entry = try entry(named: name)
    let file = try load()
    let outcome = ModelCheck.check(
      entry, at: path(of: entry), recorded: file.verified[entry.fileName], hashing: true, progress: progress)
    if let stamp = outcome.stamp { try update { $0.verified[entry.fileName] = stamp } }
    return (registered(entry, outcome: outcome, file: try load()), outcome.computedHash)
  }

  /// A usable model named `name` of `role`, checked (its hash verified unless a verification since which
  /// the file has not changed already did).
  /// - Throws: a ``ModelRegistryError`` naming what stands in the way.
  public func usable(_ name: String, role: ModelRole) throws(ModelRegistryError) -> RegisteredModel {
    let entry = try entry(named: name)
    guard entry.role == role else { throw .wrongRole(id: entry.id, role: entry.role, wanted: role) }
    let file = try load()
    let recorded = file.verified[entry.fileName]
    let quick = ModelCheck.check(entry, at: path(of: entry), recorded: recorded, hashing: false)
    let outcome =
      if case .ready(verified: false) = quick.status, entry.sha256 != nil {
        ModelCheck.check(entry, at: path(of: entry), recorded: recorded, hashing: true)
      } else { quick }
    if let stamp = outcome.stamp { try? update { $0.verified[entry.fileName] = stamp } }
    switch outcome.status {
    case .ready: return registered(entry, outcome: outcome, file: file)
    case .missing: throw .notInstalled(id: entry.id, path: path(of: entry))
    case .invalid(let problem): throw .invalid(id: entry.id, problem: problem)
    }
  }

  /// Chooses the model named `name` for its role, after checking it fully.
  @discardableResult
  public func use(_ name: String) throws(ModelRegistryError) -> RegisteredModel {
    let role = try entry(named: name).role
    let model = try usable(name, role: role)
    try update { $0.active[role.rawValue] = model.id }
    return model
  }

  /// The model chosen for `role`, when one was and it is still installed.
  public func active(_ role: ModelRole) throws(ModelRegistryError) -> ModelEntry? {
    let file = try load()
    guard let id = file.active[role.rawValue] else { return nil }
    return entries(in: file).first { $0.id == id }
  }

  /// Adds a user entry, replacing the user's entry of the same id.
  /// - Throws: ``ModelRegistryError/duplicate(id:file:)`` when a bundled entry has its id or file name, or
  ///   another user entry its file name.
  public func register(_ entry: ModelEntry) throws(ModelRegistryError) {
    try update { file in
      let clashes =
        BundledModels.entries.contains { $0.id == entry.id || $0.fileName == entry.fileName }
        || file.models.contains { $0.fileName == entry.fileName && $0.id != entry.id }
      if clashes { throw ModelRegistryError.duplicate(id: entry.id, file: entry.fileName) }
      file.models.removeAll { $0.id == entry.id }
      file.models.append(entry)
    }
  }

  /// Records that the file of `entry` has the hash `sha256` at its current size and modification time.
  func recordVerification(of entry: ModelEntry, sha256: String) throws(ModelRegistryError) {
    guard let facts = FileFacts(path: path(of: entry)) else { return }
    let stamp = RegistryFile.Verification(size: facts.size, modified: facts.modified, sha256: sha256)
    try update { $0.verified[entry.fileName] = stamp }
  }

  /// Deletes the model's file and forgets the user's entry (a bundled entry stays in the catalogue, not
  /// installed); a role whose chosen model it was falls back to the default.
  @discardableResult
  public func remove(_ name: String) throws(ModelRegistryError) -> ModelEntry {
    let entry = try entry(named: name)
    let target = path(of: entry)
    if FileManager.default.fileExists(atPath: target) {
      do {
        try FileManager.default.removeItem(atPath: target)
      } catch {
        throw .cannotWrite(path: target, detail: "\(error)")
      }
    }
    try update { file in
      file.models.removeAll { $0.id == entry.id }
      file.verified[entry.fileName] = nil
      file.active = file.active.filter { $0.value != entry.id }
    }
    return entry
  }

  /// Where the entry's file is.
  public func path(of entry: ModelEntry) -> String {
    folder.appendingPathComponent(entry.fileName).path
  }

  /// Whether `entry` comes from the bundled catalogue.
  public func isBundled(_ entry: ModelEntry) -> Bool {
    BundledModels.entries.contains(entry)
  }

  // MARK: The file

  private func entries(in file: RegistryFile) -> [ModelEntry] {
    var all = BundledModels.entries
    for entry in file.models where !all.contains(where: { $0.id == entry.id }) { all.append(entry) }
    let known = Set(all.map(\.fileName))
    for name in ModelCatalog.fileNames(in: folder) where !known.contains(name) {
      let stem = ModelFileName.stem(name)
      guard !all.contains(where: { $0.id == stem }) else { continue }
      let header = try? GGUFReader.read(path: folder.appendingPathComponent(name).path)
      all.append(ModelEntry(id: stem, displayName: header?.name ?? stem, role: Self.role(of: header), fileName: name))
    }
    return all
  }

  /// An embedding model pools its output; a chat model does not (an unreadable header counts as chat).
  static func role(of file: GGUFFile?) -> ModelRole {
    guard let file, let architecture = file.architecture else { return .chat }
    return file["\(architecture).pooling_type"] != nil || architecture.contains("bert") ? .embedding : .chat
  }

  private func registered(_ entry: ModelEntry, outcome: ModelCheck.Outcome, file: RegistryFile) -> RegisteredModel {
    RegisteredModel(
      entry: entry, path: path(of: entry), status: outcome.status,
      isActive: file.active[entry.role.rawValue] == entry.id, isBundled: isBundled(entry), header: outcome.header)
  }

  private func load() throws(ModelRegistryError) -> RegistryFile {
    let data: Data
    do {
      data = try Data(contentsOf: fileURL)
    } catch {
      if !FileManager.default.fileExists(atPath: fileURL.path) { return RegistryFile() }
      throw .unreadableRegistry(path: fileURL.path, detail: "\(error)")
    }
    do {
      return try JSONDecoder().decode(RegistryFile.self, from: data)
    } catch {
      throw .unreadableRegistry(path: fileURL.path, detail: DecodingFailure.describe(error))
    }
  }

  /// Runs `change` on the registry under an exclusive lock and writes the result atomically.
  private func update(_ change: (inout RegistryFile) throws -> Void) throws(ModelRegistryError) {
    let lockPath = folder.appendingPathComponent(".registry.lock").path
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw .cannotWrite(path: folder.path, detail: "\(error)")
    }
    let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
    guard descriptor >= 0 else { throw .cannotWrite(path: lockPath, detail: "cannot open the lock file") }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    var file = try load()
    do {
      try change(&file)
    } catch let error as ModelRegistryError {
      throw error
    } catch {
      throw .cannotWrite(path: fileURL.path, detail: "\(error)")
    }
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(file).write(to: fileURL, options: .atomic)
    } catch {
      throw .cannotWrite(path: fileURL.path, detail: "\(error)")
    }
  }
}
