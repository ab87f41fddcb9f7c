import Foundation
import HearthCore

/// Cases kept in a JSON file rather than in the code: a held-out set written apart from the readers, by someone
/// who never saw them, and scored last (`hearth bench assistant --cases-file bench/assistant-unseen.json`).
///
/// The file is `{"written": "…", "cases": [{…}]}`; each case has `request`, `category` (a
/// ``AssistantCase/Category`` name: schedule, lookups, creations, changes, checkIns, plain), an optional `today`
/// (`YYYY-MM-DD`), and `expect`: `action` (with `kind`, `action`, `fields`), `answer` (with `kind`, `action`,
/// `facts`, optional `absent`) or `nothing` (optional `saying`). Every field is read or refused by name.
public enum AssistantCaseFile {
  /// Why a file could not be read.
  public struct Problem: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  struct File: Decodable {
    var written: String?
    var cases: [Entry]
  }

  struct Entry: Decodable {
    var request: String
    var category: String
    var today: String?
    var expect: String
    var kind: String?
    var action: String?
    var fields: [String: String]?
    var facts: [String]?
    var absent: [String]?
    var saying: [String]?
  }

  /// The cases of the file at `path`.
  /// - Throws: ``Problem`` naming the case and field that could not be read.
  public static func load(_ path: String) throws -> [AssistantCase] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Problem(description: "\(path) could not be read: \(error.localizedDescription)")
    }
    try refuseUnknownFields(data, path: path)
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: data)
    } catch {
      throw Problem(description: "\(path) is not a case file: \(error)")
    }
    return try file.cases.enumerated().map { index, entry in
      try testCase(entry, name: "\(path), case \(index + 1) (“\(entry.request)”)")
    }
  }

  static func testCase(_ entry: Entry, name: String) throws -> AssistantCase {
    let categories: [String: AssistantCase.Category] = [
      "schedule": .schedule, "lookups": .lookups, "creations": .creations, "changes": .changes,
      "checkIns": .checkIns, "plain": .plain,
    ]
    guard let category = categories[entry.category] else {
      throw Problem(description: "\(name): category “\(entry.category)” is none of \(categories.keys.sorted())")
    }
    var today = AssistantProfile.thursday
    if let day = entry.today {
      guard let parsed = LocalDate(parsing: day) else { throw Problem(description: "\(name): today “\(day)”") }
      today = parsed
    }
    func kind() throws -> ActionKind {
      guard let raw = entry.kind, let kind = ActionKind(rawValue: raw) else {
        throw Problem(description: "\(name): kind “\(entry.kind ?? "")” is not an action kind")
      }
      return kind
    }
    let expected: AssistantCase.Expected
    switch entry.expect {
    case "action": expected = .action(try kind(), entry.action, fields: entry.fields ?? [:])
    case "answer":
      guard let facts = entry.facts, !facts.isEmpty else {
        throw Problem(description: "\(name): an answer needs facts")
      }
      expected = .answer(try kind(), entry.action, facts: facts, absent: entry.absent ?? [])
    case "nothing": expected = .nothing(saying: entry.saying ?? [])
    default: throw Problem(description: "\(name): expect “\(entry.expect)” is none of action, answer, nothing")
    }
    return AssistantCase(entry.request, category, expected, today: today)
  }

  /// Refuses a field the loader does not read, rather than ignoring it.
  static func refuseUnknownFields(_ data: Data, path: String) throws {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw Problem(description: "\(path) is not a JSON object")
    }
    let top: Set<String> = ["written", "cases"]
    if let extra = Set(root.keys).subtracting(top).sorted().first {
      throw Problem(description: "\(path): unknown field “\(extra)”")
    }
    let known: Set<String> = [
      "request", "category", "today", "expect", "kind", "action", "fields", "facts", "absent", "saying",
    ]
    for (index, entry) in (root["cases"] as? [[String: Any]] ?? []).enumerated() {
      if let extra = Set(entry.keys).subtracting(known).sorted().first {
        throw Problem(description: "\(path), case \(index + 1): unknown field “\(extra)”")
      }
    }
  }
}
