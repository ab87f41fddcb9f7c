public import ArgumentParser
import Foundation
import HearthCore
public import HearthEngine
import HearthInterchange

struct NotesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notes",
    abstract: "Your Markdown notes: list, show, add, edit, search, remove, import and export a folder.",
    subcommands: [
      List.self, Show.self, Add.self, Edit.self, Search.self, Suggest.self, Remove.self, Import.self, Export.self,
    ]
  )

  static func line(_ note: Note) -> String {
    var text = "\(note.isPinned ? "📌 " : "")\(note.title)"
    if !note.tags.isEmpty { text += "  " + note.tags.map { "#\($0)" }.joined(separator: " ") }
    return text + "  " + Terminal.dim(DataText.shortID(note.id))
  }

  /// The body from --body, or from a file (`-` for standard input).
  static func body(_ body: String?, file: String?) throws -> String? {
    if body != nil, file != nil { throw ValidationError("give --body or --body-file, not both") }
    guard let file else { return body }
    if file == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
    return String(decoding: try InputFile.read(file), as: UTF8.self)
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List notes, pinned first, newest change first.")
    @Option(name: .long, help: "Only notes with this tag.") var tag: String?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let notes = try await Engine.openProfile().notes.list(tag: tag)
        if json { return Terminal.write(try JSONOutput.encode(notes) + "\n") }
        if notes.isEmpty { Terminal.writeError("no notes\n") }
        for note in notes { Terminal.write(NotesCommand.line(note) + "\n") }
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a note as Markdown with its front matter.")
    @Argument(help: "Note id or unique id prefix.") var id: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let note = try await Engine.openProfile().notes.item(id)
        Terminal.write(json ? try JSONOutput.encode(note) + "\n" : MarkdownNotes.write(note) + "\n")
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a note.")
    @Argument(help: "The title.") var title: String
    @Option(name: .long, help: "The Markdown body.") var body: String?
    @Option(name: .long, help: "Read the body from a file (- for standard input).") var bodyFile: String?
    @Option(name: .long, help: "A tag (repeatable).") var tag: [String] = []
    @Flag(name: .long, help: "Pin it.") var pin = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let note = Note(title: title, body: try NotesCommand.body(body, file: bodyFile) ?? "", tags: tag, isPinned: pin)
        let saved = try await Engine.openProfile().notes.create(note)
        Terminal.write(json ? try JSONOutput.encode(saved) + "\n" : "added \(NotesCommand.line(saved))\n")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change a note; fields not given stay.")
    @Argument(help: "Note id or unique id prefix.") var id: String
    @Option(name: .long, help: "New title.") var title: String?
    @Option(name: .long, help: "New body.") var body: String?
    @Option(name: .long, help: "Read the new body from a file (- for standard input).") var bodyFile: String?
    @Option(name: .long, help: "Add this paragraph at the end.") var append: String?
    @Option(name: .long, help: "Replace the tags (repeatable; --tag '' clears them).") var tag: [String] = []
    @Flag(name: .long, help: "Pin it.") var pin = false
    @Flag(name: .long, help: "Unpin it.") var unpin = false
    @Flag(name: .long, help: "Print JSON.") var json = false

    func validate() throws {
      if pin, unpin { throw ValidationError("give --pin or --unpin, not both") }
      if append != nil, body != nil || bodyFile != nil {
        throw ValidationError("give a new body or --append, not both")
      }
    }

    func run() async throws {
      try await reportingFailures {
        let service = try await Engine.openProfile().notes
        var note = try service.item(id)
        if let title { note.title = title }
        if let body = try NotesCommand.body(body, file: bodyFile) { note.body = body }
        if let append {
          note.body = note.body.isEmpty ? append : note.body.trimmingCharacters(in: .newlines) + "\n\n" + append
        }
        if !tag.isEmpty { note.tags = tag.filter { !$0.isEmpty } }
        if pin { note.isPinned = true }
        if unpin { note.isPinned = false }
        let saved = try service.update(note)
        Terminal.write(json ? try JSONOutput.encode(saved) + "\n" : "updated \(NotesCommand.line(saved))\n")
      }
    }
  }

  struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find notes by words in the title or body.")
    @Argument(help: "Words to find (all of them; word starts match).") var query: String
    @Option(name: .long, help: "Most results.") var limit = 20
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let hits = try await Engine.openProfile().notes.search(query, limit: limit)
        if json {
          struct Hit: Encodable {
            var note: Note
            var excerpt: String
          }
          return Terminal.write(try JSONOutput.encode(hits.map { Hit(note: $0.note, excerpt: $0.excerpt) }) + "\n")
        }
        if hits.isEmpty { Terminal.writeError("no matches\n") }
        for hit in hits { Terminal.write("\(NotesCommand.line(hit.note))\n    \(hit.excerpt)\n") }
      }
    }
  }

  struct Suggest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Suggest a title, tags and a one-line summary for a note; --accept writes the parts you take.")
    @Argument(help: "Note id or unique id prefix.") var id: String
    @Option(name: .long, help: "A part to write to the note: title, tags or summary (repeatable).")
    var accept: [NoteSuggestionPart] = []
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let engine = try await Engine.openProfile()
        let note = try engine.notes.item(id)
        let suggestion = try engine.suggestion(forNoteTitled: note.title, body: note.body, tags: note.tags)
        if !accept.isEmpty {
          let saved = try engine.accept(Set(accept), of: suggestion, forNote: note.id)
          return Terminal.write(json ? try JSONOutput.encode(saved) + "\n" : "updated \(NotesCommand.line(saved))\n")
        }
        if json { return Terminal.write(try JSONOutput.encode(suggestion) + "\n") }
        Terminal.write(
          [
            suggestion.title.map { "title:   \($0)" } ?? "title:   (the note's own fits)",
            "tags:    " + (suggestion.tags.isEmpty ? "(none to add)" : suggestion.tags.joined(separator: ", ")),
            "summary: " + (suggestion.summary ?? "(too short to summarise)"),
            "Take any with --accept title|tags|summary.",
          ].joined(separator: "\n") + "\n")
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a note.")
    @Argument(help: "Note id or unique id prefix.") var id: String

    func run() async throws {
      try await reportingFailures {
        Terminal.write("deleted \(try await Engine.openProfile().notes.delete(id).title)\n")
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Import a folder of Markdown files (front matter: title, tags, pinned, created, updated, id).")
    @Argument(help: "A folder.") var folder: String
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let summary = try await Engine.openProfile().notes.importFolder(URL(fileURLWithPath: folder))
        Terminal.write(json ? try JSONOutput.encode(summary) + "\n" : "\(summary)\n")
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write every note into a folder as Title.md.")
    @Argument(help: "The folder (created if needed).") var folder: String
    @Flag(name: .long, help: "Replace files of the same name.") var replace = false

    func run() async throws {
      try await reportingFailures {
        let files = try await Engine.openProfile().notes.exportFolder(URL(fileURLWithPath: folder), replacing: replace)
        Terminal.write("wrote \(files.count) notes to \(folder)\n")
      }
    }
  }
}

extension NoteSuggestionPart: ExpressibleByArgument {}
