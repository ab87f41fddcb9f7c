public import Foundation
public import HearthCore
import Yams

/// Notes as Markdown files with a YAML front matter (`id`, `title`, `tags`, `pinned`, `created`, `updated`),
/// the shape note apps such as Obsidian read and write.
public enum MarkdownNotes {
  /// Front-matter keys Hearth reads.
  static let knownKeys: Set<String> = ["id", "title", "tags", "pinned", "created", "updated"]

  /// Reads one note. `path` (relative to the folder) names the note when the front matter gives no title
  /// and no `# heading` starts the body, and gives it a stable id when the front matter has none, so
  /// importing the same folder twice updates rather than duplicates.
  public static func read(
    _ text: String, path: String, modified: Date = Date()
  ) throws(ItemProblemReport)
    -> (note: Note, dropped: [String])
  {
    var remainder = Substring(text)
    var fields: [String: Node] = [:]
    var dropped: [String] = []
    let opening = text.hasPrefix("---\n") ? 4 : text.hasPrefix("---\r\n") ? 5 : 0
    if opening > 0 {
      let rest = text.dropFirst(opening)
      guard let close = rest.range(of: "(^|\r?\n)---(\r?\n|$)", options: .regularExpression) else {
        throw ItemProblemReport(line: 1, reason: "the front matter (---) is not closed")
      }
      let yaml = String(rest[..<close.lowerBound])
      do {
        guard let node = try Yams.compose(yaml: yaml) else {
          throw ItemProblemReport(line: 2, reason: "empty front matter")
        }
        guard let mapping = node.mapping else {
          throw ItemProblemReport(line: 2, reason: "the front matter is not a list of key: value lines")
        }
        for (key, value) in mapping {
          guard let name = key.string else { continue }
          if knownKeys.contains(name) { fields[name] = value } else { dropped.append(name) }
        }
      } catch let problem as ItemProblemReport {
        throw problem
      } catch {
        throw ItemProblemReport(line: 1, reason: "the front matter is not valid YAML: \(error)")
      }
      remainder = rest[close.upperBound...]
    }
    let body = String(remainder)
    let fileTitle = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    let heading = body.split(separator: "\n", maxSplits: 1).first.flatMap {
      $0.hasPrefix("# ") ? String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) : nil
    }
    var note = Note(
      id: fields["id"]?.string ?? stableID(for: path),
      title: fields["title"]?.string ?? heading ?? fileTitle, body: body, tags: tags(fields["tags"]),
      isPinned: fields["pinned"]?.bool ?? false,
      createdAt: Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down)),
      updatedAt: Date(timeIntervalSince1970: modified.timeIntervalSince1970.rounded(.down)))
    if let created = fields["created"] {
      guard let date = created.timestamp else {
        throw ItemProblemReport(line: 1, reason: "created: is not a date-time")
      }
      note.createdAt = date
    }
    if let updated = fields["updated"] {
      guard let date = updated.timestamp else {
        throw ItemProblemReport(line: 1, reason: "updated: is not a date-time")
      }
      note.updatedAt = date
    }
    if note.title.trimmingCharacters(in: .whitespaces).isEmpty { note.title = fileTitle }
    return (note, dropped)
  }

  /// `tags: [a, b]`, a block list, or `tags: a, b` / `tags: a b`.
  private static func tags(_ node: Node?) -> [String] {
    guard let node else { return [] }
    if let sequence = node.sequence { return sequence.compactMap(\.string) }
    guard let text = node.string else { return [] }
    return text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
  }

  /// A stable id from a relative path.
  static func stableID(for path: String) -> String { "md-" + StableID.hash(path) }

  /// Reads every `.md` / `.markdown` file under `folder` (hidden folders skipped). A file that cannot be
  /// read is reported with its path and skipped.
  public static func readFolder(_ folder: URL) throws(InterchangeError) -> ParsedFile<Note> {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
      throw .wrongFormat(expected: "a folder of Markdown files", found: folder.path)
    }
    var parsed = ParsedFile<Note>()
    let files =
      (FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: [.contentModificationDateKey], options: [.skipsHiddenFiles])?
      .compactMap { $0 as? URL } ?? [])
      .filter { ["md", "markdown"].contains($0.pathExtension.lowercased()) }
      .sorted { $0.path < $1.path }
    for file in files {
      let relative = String(file.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))
        .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
      do {
        let data = try Data(contentsOf: file)
        let text = try InterchangeLimits.text(of: data, format: "Markdown")
        let modified =
          (try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
        let (note, dropped) = try read(text, path: relative, modified: modified)
        parsed.items.append((note, 1))
        for key in dropped { parsed.droppedProperties["front matter \(key)", default: 0] += 1 }
      } catch let problem as ItemProblemReport {
        parsed.skipped.append(SkippedItem(line: problem.line, item: relative, reason: problem.reason))
      } catch {
        parsed.skipped.append(SkippedItem(line: 0, item: relative, reason: "\(error)"))
      }
    }
    return parsed
  }

  /// The file's text: front matter, a blank line, the body.
  public static func write(_ note: Note) -> String {
    func quoted(_ text: String) -> String {
      // JSON string syntax is valid YAML.
      let data = (try? JSONEncoder().encode(text)) ?? Data()
      return String(decoding: data, as: UTF8.self)
    }
    let formatter = ISO8601DateFormatter()
    var lines = ["---", "id: \(quoted(note.id))", "title: \(quoted(note.title))"]
    lines.append("tags: [\(note.tags.map(quoted).joined(separator: ", "))]")
    lines.append("pinned: \(note.isPinned)")
    lines.append("created: \(formatter.string(from: note.createdAt))")
    lines.append("updated: \(formatter.string(from: note.updatedAt))")
    lines.append("---")
    return lines.joined(separator: "\n") + "\n" + note.body
  }

  /// A file name per note, from its title, unique within the list: `Trip ideas.md`, `Trip ideas 2.md`.
  public static func fileNames(for notes: [Note]) -> [String] {
    var used = Set<String>()
    return notes.map { note in
      let cleaned = note.title.map { "/\\:*?\"<>|\0".contains($0) || $0.isNewline ? "-" : $0 }
      var base = String(String(cleaned).trimmingCharacters(in: .whitespaces).prefix(80))
      if base.isEmpty || base.hasPrefix(".") { base = "note" + base }
      var name = base + ".md"
      var counter = 2
      while !used.insert(name.lowercased()).inserted {
        name = "\(base) \(counter).md"
        counter += 1
      }
      return name
    }
  }
}

/// A note file that could not be read, with the line of the problem.
public struct ItemProblemReport: Error, Sendable, Hashable {
  public var line: Int
  public var reason: String
}
