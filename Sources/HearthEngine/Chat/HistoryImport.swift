public import Foundation
import HearthCore
import HearthInterchange
import HearthStore

/// Chat histories from other assistants, brought into Hearth's sessions.
public enum AssistantHistory: String, Sendable, Hashable, CaseIterable, Codable {
  case chatgpt, claude

  public var displayName: String { self == .chatgpt ? "ChatGPT" : "Claude" }
}

/// What an import brought in and what it left out.
public struct HistoryImportReport: Sendable, Hashable, Codable {
  /// Chats made.
  public var conversations = 0
  /// Messages kept, in the branch shown and in the other versions.
  public var messages = 0
  /// Branches kept as versions at their forks.
  public var versions = 0
  /// Chats already imported from the same export, left as they are.
  public var alreadyImported = 0
  /// Parts no chat in Hearth can hold (images, tool output, files …), by kind.
  public var skipped: [String: Int] = [:]
  /// Chats added to the memory.
  public var remembered = 0
}

/// Why a history could not be read.
public enum HistoryImportError: Error, Sendable, Hashable, CustomStringConvertible {
  case zipToolMissing
  case notInArchive(String)
  case unreadableArchive(String)
  case tooLarge(limit: Int)

  public var description: String {
    switch self {
    case .zipToolMissing: "reading a .zip export needs unzip (Debian: apt-get install unzip)"
    case .notInArchive(let name): "the archive holds no \(name)"
    case .unreadableArchive(let reason): "the archive cannot be read: \(reason)"
    case .tooLarge(let limit): "conversations.json is larger than \(limit >> 20) MiB"
    }
  }
}

extension Engine {
  /// The largest `conversations.json` read.
  public static let historyLimit = 512 << 20

  /// Imports another assistant's export: `conversations.json`, or the `.zip` it came in. Each conversation
  /// becomes a chat (marked imported: its text is data, never a source of actions) with the branch shown as
  /// the chat and every other branch as a version; one imported before is left as it is. With `remember`, the
  /// chats are added to the memory.
  /// - Throws: ``HistoryImportError`` for an archive that cannot be read; `InterchangeError` for a file that
  ///   is not the export; `StoreError` when the database fails (the chats stored before it stay).
  public func importHistory(
    _ data: Data, from assistant: AssistantHistory, remember: Bool = false
  ) async throws -> HistoryImportReport {
    let json = data.starts(with: [0x50, 0x4B, 0x03, 0x04]) ? try await Self.conversationsJSON(inZip: data) : data
    let parsed = try assistant == .chatgpt ? AssistantExport.chatGPT(json) : AssistantExport.claude(json)
    var report = HistoryImportReport(skipped: parsed.skipped)
    for conversation in parsed.conversations {
      let id = UUID(uuidString: conversation.id) ?? UUID()
      if (try? database.session(id)) != nil {
        report.alreadyImported += 1
        continue
      }
      let export = conversation.export(sessionID: id)
      guard !export.messages.isEmpty else {
        report.skipped["empty conversation", default: 0] += 1
        continue
      }
      let session = try database.importSession(export)
      report.conversations += 1
      let kept = Self.alternatives(export.branches)
      report.messages += export.messages.count + kept.messages
      report.versions += kept.versions
      if remember, memory.isAvailable {
        try await memory.remember(session: session)
        report.remembered += 1
      }
    }
    return report
  }

  /// The versions kept beside the branch shown, nested ones too, and the messages they hold.
  private static func alternatives(_ branches: [SessionBranch]) -> (versions: Int, messages: Int) {
    branches.compactMap(\.tail).reduce((0, 0)) { total, tail in
      let inner = alternatives(tail.branches)
      return (total.versions + 1 + inner.versions, total.messages + tail.messages.count + inner.messages)
    }
  }

  /// `conversations.json` from an export's zip archive, read with `unzip`.
  static func conversationsJSON(inZip data: Data) async throws -> Data {
    guard
      let tool = ["/usr/bin/unzip", "/usr/local/bin/unzip", "/opt/homebrew/bin/unzip"]
        .first(where: FileManager.default.isExecutableFile(atPath:))
    else { throw HistoryImportError.zipToolMissing }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = folder.appendingPathComponent("export.zip")
    try data.write(to: archive)
    let listing = try await BoundedProcess(
      executable: URL(fileURLWithPath: tool), arguments: ["-Z1", archive.path], outputLimit: 4 << 20,
      timeLimit: .seconds(60)
    ).run()
    guard listing.status == 0 else {
      throw HistoryImportError.unreadableArchive(listing.errors.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    // At the top, or in the one folder the archive was made from.
    let names = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").map(String.init)
    guard let name = names.filter({ $0.hasSuffix("conversations.json") }).min(by: { $0.count < $1.count }) else {
      throw HistoryImportError.notInArchive("conversations.json")
    }
    let outcome = try await BoundedProcess(
      executable: URL(fileURLWithPath: tool), arguments: ["-p", archive.path, name],
      outputLimit: historyLimit, timeLimit: .seconds(300)
    ).run()
    if outcome.stopped != nil { throw HistoryImportError.tooLarge(limit: historyLimit) }
    guard outcome.status == 0 else {
      throw HistoryImportError.unreadableArchive(outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return outcome.output
  }
}
