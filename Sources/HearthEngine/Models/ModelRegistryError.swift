/// Why the registry cannot do what was asked.
public enum ModelRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No entry and no installed file has this name.
  case unknownModel(String, known: [String])
  /// The entry exists but its file is not in the models folder.
  case notInstalled(id: String, path: String)
  /// The file is there but cannot be used.
  case invalid(id: String, problem: String)
  /// A model of one role was chosen for another (an embedding model to chat with).
  case wrongRole(id: String, role: ModelRole, wanted: ModelRole)
  /// Another entry already has this id or file name.
  case duplicate(id: String, file: String)
  /// `registry.json` cannot be read.
  case unreadableRegistry(path: String, detail: String)
  /// The registry or a model file cannot be written or removed.
  case cannotWrite(path: String, detail: String)

  public var description: String {
    switch self {
    case .unknownModel(let name, let known):
      "no model is named \(name); known models: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
    case .notInstalled(let id, let path):
      "the model \(id) is not installed (no file at \(path)); `hearth models pull URL --sha256 HEX` installs one"
    case .invalid(let id, let problem):
      "the model \(id) cannot be used: \(problem)"
    case .wrongRole(let id, let role, let wanted):
      "the model \(id) is a\(role == .embedding ? "n" : "") \(role.rawValue) model, not a\(wanted == .embedding ? "n" : "") \(wanted.rawValue) model"
    case .duplicate(let id, let file):
      "a model named \(id) or stored as \(file) is already registered; choose another --name"
    case .unreadableRegistry(let path, let detail):
      "the model registry \(path) is unreadable: \(detail)"
    case .cannotWrite(let path, let detail):
      "cannot write \(path): \(detail)"
    }
  }
}
