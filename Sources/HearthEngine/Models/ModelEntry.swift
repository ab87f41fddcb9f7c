import Foundation

/// What a model is for.
public enum ModelRole: String, Sendable, Hashable, Codable, CaseIterable {
  /// Answers chats.
  case chat
  /// Turns text into vectors for the memory.
  case embedding
}

/// One model the registry knows: a bundled catalogue entry or one the user added (by pulling it).
public struct ModelEntry: Sendable, Hashable, Codable {
  /// How commands and requests name the model.
  public var id: String
  /// A name for people.
  public var displayName: String
  public var role: ModelRole
  /// The file's name in the models folder.
  public var fileName: String
  /// The smallest and largest size the file may have, in bytes; `nil` when unknown.
  public var sizeBounds: ClosedRange<UInt64>?
  /// The file's SHA-256 in lowercase hex; `nil` when unknown.
  public var sha256: String?
  /// A chat template to use instead of the file's own (a llama.cpp template name or a template text).
  public var chatTemplate: String?
  /// The context window to run it with when none is asked for.
  public var recommendedContext: Int?
  /// Where the file was downloaded from, for a pulled model.
  public var source: String?

  /// Creates an entry.
  public init(
    id: String, displayName: String, role: ModelRole, fileName: String, sizeBounds: ClosedRange<UInt64>? = nil,
    sha256: String? = nil, chatTemplate: String? = nil, recommendedContext: Int? = nil, source: String? = nil
  ) {
    self.id = id
    self.displayName = displayName
    self.role = role
    self.fileName = fileName
    self.sizeBounds = sizeBounds
    self.sha256 = sha256
    self.chatTemplate = chatTemplate
    self.recommendedContext = recommendedContext
    self.source = source
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, role, source
    case displayName = "display_name"
    case fileName = "file"
    case minimumSize = "min_size"
    case maximumSize = "max_size"
    case sha256
    case chatTemplate = "chat_template"
    case recommendedContext = "recommended_context"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try RegistryFile.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    id = try container.decode(String.self, forKey: .id)
    displayName = try container.decodeIfPresent(String.self, forKey: .displayName) ?? id
    role = try container.decode(ModelRole.self, forKey: .role)
    fileName = try container.decode(String.self, forKey: .fileName)
    let minimum = try container.decodeIfPresent(UInt64.self, forKey: .minimumSize)
    let maximum = try container.decodeIfPresent(UInt64.self, forKey: .maximumSize)
    switch (minimum, maximum) {
    case (let low?, let high?) where low <= high: sizeBounds = low...high
    case (nil, nil): sizeBounds = nil
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .minimumSize, in: container, debugDescription: "min_size and max_size go together, min_size first")
    }
    sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)?.lowercased()
    chatTemplate = try container.decodeIfPresent(String.self, forKey: .chatTemplate)
    recommendedContext = try container.decodeIfPresent(Int.self, forKey: .recommendedContext)
    source = try container.decodeIfPresent(String.self, forKey: .source)
    if let sha256, !SHA256Digest.isValidHex(sha256) {
      throw DecodingError.dataCorruptedError(
        forKey: .sha256, in: container, debugDescription: "sha256 is not 64 hexadecimal digits")
    }
    guard ModelFileName.isSafe(fileName) else {
      throw DecodingError.dataCorruptedError(
        forKey: .fileName, in: container, debugDescription: "\(fileName) is not a plain .gguf file name")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(displayName, forKey: .displayName)
    try container.encode(role, forKey: .role)
    try container.encode(fileName, forKey: .fileName)
    try container.encodeIfPresent(sizeBounds?.lowerBound, forKey: .minimumSize)
    try container.encodeIfPresent(sizeBounds?.upperBound, forKey: .maximumSize)
    try container.encodeIfPresent(sha256, forKey: .sha256)
    try container.encodeIfPresent(chatTemplate, forKey: .chatTemplate)
    try container.encodeIfPresent(recommendedContext, forKey: .recommendedContext)
    try container.encodeIfPresent(source, forKey: .source)
  }
}

/// The models Hearth knows without being told: the ones the set-up installs.
public enum BundledModels {
  /// The bundled catalogue.
  public static let entries: [ModelEntry] = [
    ModelEntry(
      id: "smollm2-135m-instruct", displayName: "SmolLM2 135M Instruct (Q4_1)", role: .chat,
      fileName: ModelResolver.defaultModelFileName, sizeBounds: 98_362_432...98_362_432,
      sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", recommendedContext: 4096),
    // A base model without a chat template of its own: Gemma's turn format is given.
    ModelEntry(
      id: "gemma-3-270m", displayName: "Gemma 3 270M (Q4_K_M)", role: .chat,
      fileName: "gemma-3-270m-Q4_K_M.gguf", sizeBounds: 253_113_024...253_113_024,
      sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818", chatTemplate: "gemma",
      recommendedContext: 4096),
    ModelEntry(
      id: "all-minilm-l6-v2", displayName: "all-MiniLM-L6-v2 (F16)", role: .embedding,
      fileName: EngineConfiguration.defaultEmbeddingModelFileName, sizeBounds: 46_226_592...46_226_592,
      sha256: "8965e38d1d0f59d5f5f49dfa54efd76060bab80149844361d21935302ecef37e", recommendedContext: 512),
  ]

  /// The catalogue's entry for a file given by its path rather than installed: the one with its name and size.
  public static func entry(forFile path: String) -> ModelEntry? {
    let url = URL(fileURLWithPath: path)
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
    guard let size = (attributes?[.size] as? NSNumber)?.uint64Value else { return nil }
    return entries.first { $0.fileName == url.lastPathComponent && $0.sizeBounds?.contains(size) == true }
  }
}

/// Model file names as the registry accepts them: one plain `.gguf` name, never a path.
public enum ModelFileName {
  /// Whether `name` is a plain file name Hearth may create in the models folder.
  public static func isSafe(_ name: String) -> Bool {
    guard (5...200).contains(name.utf8.count), name.lowercased().hasSuffix(".gguf"), !name.hasPrefix(".") else {
      return false
    }
    return name.unicodeScalars.allSatisfy { allowed.contains($0) } && !name.contains("..")
  }

  /// A safe file name made from `candidate` (a `--name` or the last part of a URL's path): characters
  /// other than letters, digits, `.`, `_` and `-` become `-`, leading dots go, `.gguf` is added when missing.
  /// - Returns: `nil` when nothing usable is left.
  public static func sanitized(_ candidate: String) -> String? {
    let last = candidate.split(separator: "/").last.map(String.init) ?? candidate
    var name = String(String.UnicodeScalarView(last.unicodeScalars.map { allowed.contains($0) ? $0 : "-" }))
    while name.contains("..") { name = name.replacingOccurrences(of: "..", with: ".") }
    while name.hasPrefix(".") || name.hasPrefix("-") { name.removeFirst() }
    if !name.lowercased().hasSuffix(".gguf") { name += ".gguf" }
    if name.utf8.count > 200 { name = String(name.prefix(190)) + ".gguf" }
    return isSafe(name) ? name : nil
  }

  /// The id a file is known by when no other is given: its name without `.gguf`.
  public static func stem(_ fileName: String) -> String {
    fileName.lowercased().hasSuffix(".gguf") ? String(fileName.dropLast(5)) : fileName
  }

  private static let allowed = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
}
