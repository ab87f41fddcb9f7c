public import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore

struct IndexCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "The assistant's memory: add documents, list and remove what it holds, set what it knows about you.",
    subcommands: [Add.self, List.self, Remove.self, Rebuild.self, Persona.self]
  )

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Index documents (.txt, .md, .html, .pdf); folders are walked. Unchanged files are skipped, so an "
        + "interrupted run resumes where it stopped.")
    @Argument(help: "Files or folders.") var paths: [String]
    @Flag(name: .long, help: "Print one JSON object with what was indexed and skipped.") var json = false

    func run() async throws {
      try await reportingFailures {
        let memory = try await Engine.openProfile().memory
        try await memory.prepare()
        let (files, skippedKinds) = memory.documentFiles(in: paths.map { URL(fileURLWithPath: $0) })
        var report = AddReport()
        report.skipped = skippedKinds.map { .init(path: $0.path, reason: $0.reason) }
        var progress = ProgressLine(total: files.count, quiet: json)
        for file in files {
          do {
            let outcome = try await memory.addFile(file)
            report.indexed.append(
              .init(
                path: outcome.source.location, chunks: outcome.source.chunkCount, added: outcome.added,
                unchanged: outcome.unchanged))
            progress.advance(chunks: outcome.added)
          } catch let error as DocumentError {
            report.skipped.append(.init(path: file.path, reason: error.description))
            progress.advance(chunks: 0)
          }
        }
        progress.finish()
        for path in paths {
          var isFolder: ObjCBool = false
          guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            continue
          }
          report.removed += try await memory.forgetMissingFiles(under: URL(fileURLWithPath: path)).map(\.location)
        }
        if json { return Terminal.write(try JSONOutput.encode(report) + "\n") }
        let added = report.indexed.filter { !$0.unchanged }
        Terminal.write(
          "indexed \(added.count) file\(added.count == 1 ? "" : "s") (\(added.reduce(0) { $0 + $1.added }) new chunks), "
            + "\(report.indexed.count - added.count) unchanged, \(report.skipped.count) skipped"
            + (report.removed.isEmpty ? "" : ", \(report.removed.count) gone from disk and forgotten") + "\n")
        for skipped in report.skipped { Terminal.writeError("skipped \(skipped.reason)\n") }
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List what the memory holds, with chunk counts.")
    @Option(name: .long, help: "Only this collection: notes, documents, conversations, persona or facts.")
    var collection: MemoryCollection?
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
      try await reportingFailures {
        let memory = try await Engine.openProfile().memory
        if memory.isAvailable { try await memory.syncNotes() }
        let sources = try memory.sources(in: collection)
        if json { return Terminal.write(try JSONOutput.encode(sources) + "\n") }
        if sources.isEmpty { Terminal.writeError("the memory is empty; add documents with `hearth index add PATH…`\n") }
        for source in sources {
          Terminal.write(
            "\(source.collection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) "
              + "\(String(source.chunkCount).leftPadded(to: 5)) chunks  \(source.collection == .documents ? source.location : source.title)  "
              + Terminal.dim(source.id) + "\n")
        }
        if let identity = try memory.indexIdentity() {
          Terminal.writeError(Terminal.dim("vectors: \(identity.model), \(identity.dimension) dimensions") + "\n")
        }
      }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm", abstract: "Forget a source: a document's path, or an id from `hearth index list`.")
    @Argument(help: "A file path or a source id.") var source: String

    func run() async throws {
      try await reportingFailures {
        let removed = try await Engine.openProfile().memory.remove(source)
        Terminal.write("removed \(removed.id) (\(removed.chunkCount) chunks)\n")
      }
    }
  }

  struct Rebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Re-embed everything with the current embedding model (after switching models).")

    func run() async throws {
      try await reportingFailures {
        let memory = try await Engine.openProfile().memory
        try await memory.rebuild { done, total in
          Terminal.writeError("\rre-embedded \(done)/\(total) chunks")
        }
        Terminal.writeError("\n")
        Terminal.write("rebuilt with \(try memory.indexIdentity()?.model ?? "the embedding model")\n")
      }
    }
  }

  struct Persona: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show or set what you want the assistant to know about you (remembered in every chat).")
    @Argument(help: "The new text; omit to show the current one.") var text: String?
    @Flag(name: .long, help: "Clear it.") var clear = false

    func run() async throws {
      try await reportingFailures {
        let memory = try await Engine.openProfile().memory
        if clear, text != nil { throw ValidationError("give a text or --clear, not both") }
        if clear { return try await memory.setPersona("") }
        guard let text else {
          let current = try memory.persona()
          return Terminal.write(current.isEmpty ? "" : current + "\n")
        }
        try await memory.setPersona(text)
      }
    }
  }
}

struct RecallCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recall", abstract: "Search the memory by meaning and by words; each hit names its source.")
  @Argument(help: "What to look for.") var query: String
  @Option(name: .shortAndLong, help: "How many hits.") var k = 5
  @Option(name: .long, help: "hybrid (default), vector or keyword.") var mode: RetrievalMode = .hybrid
  @Option(name: .long, help: "Only this collection (repeatable).") var collection: [MemoryCollection] = []
  @Flag(name: .long, help: "Print JSON.") var json = false

  func validate() throws {
    guard (1...100).contains(k) else { throw ValidationError("--k must be between 1 and 100") }
  }

  func run() async throws {
    try await reportingFailures {
      let memory = try await Engine.openProfile().memory
      let options = RetrievalOptions(
        k: k, mode: mode, collections: collection.isEmpty ? nil : Set(collection))
      let hits = try await memory.recall(query, options: options)
      if json { return Terminal.write(try JSONOutput.encode(hits.map(RecallHit.init)) + "\n") }
      if hits.isEmpty { Terminal.writeError("nothing found\n") }
      for (index, hit) in hits.enumerated() {
        let place = hit.chunk.heading.isEmpty ? "" : " › \(hit.chunk.heading)"
        let similarity = hit.similarity.map { String(format: "%.3f", $0) } ?? "–"
        Terminal.write(
          "\(index + 1). \(hit.source.collection == .documents ? hit.source.location : hit.source.title)\(place)  "
            + Terminal.dim("similarity \(similarity), bytes \(hit.chunk.start)–\(hit.chunk.end)") + "\n")
        let excerpt = hit.chunk.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        Terminal.write("   " + String(excerpt.prefix(220)) + (excerpt.count > 220 ? "…" : "") + "\n")
      }
    }
  }
}

/// One hit as `hearth recall --json` prints it.
struct RecallHit: Encodable {
  var source: String
  var sourceID: String
  var collection: MemoryCollection
  var title: String
  var heading: String
  var text: String
  var start: Int
  var end: Int
  var score: Double
  var similarity: Double?
  var vectorRank: Int?
  var keywordRank: Int?

  init(_ hit: MemoryHit) {
    source = hit.source.location
    sourceID = hit.source.id
    collection = hit.source.collection
    title = hit.source.title
    heading = hit.chunk.heading
    text = hit.chunk.text
    start = hit.chunk.start
    end = hit.chunk.end
    score = hit.score
    similarity = hit.similarity
    vectorRank = hit.vectorRank
    keywordRank = hit.keywordRank
  }
}

/// What `hearth index add --json` prints.
struct AddReport: Encodable {
  struct Indexed: Encodable {
    var path: String
    var chunks: Int
    var added: Int
    var unchanged: Bool
  }
  struct Skipped: Encodable {
    var path: String
    var reason: String
  }
  var indexed: [Indexed] = []
  var skipped: [Skipped] = []
  /// Files indexed before from a folder given again, no longer there, and forgotten.
  var removed: [String] = []
}

/// A progress bar on standard error: files done of total, new chunks and their rate.
struct ProgressLine {
  let total: Int
  let quiet: Bool
  private var done = 0
  private var chunks = 0
  private let start = ContinuousClock.now

  init(total: Int, quiet: Bool) {
    self.total = total
    // A bar redrawn with carriage returns is for a person watching, not for a log file.
    self.quiet = quiet || isatty(STDERR_FILENO) == 0
  }

  mutating func advance(chunks added: Int) {
    done += 1
    chunks += added
    guard !quiet else { return }
    let seconds = max(0.001, (ContinuousClock.now - start).seconds)
    let width = 24
    let filled = total == 0 ? width : width * done / total
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    Terminal.writeError(
      "\r\(bar) \(done)/\(total) files · \(chunks) chunks · \(String(format: "%.0f", Double(chunks) / seconds)) chunks/s"
    )
  }

  func finish() {
    if !quiet, total > 0 { Terminal.writeError("\n") }
  }
}

extension MemoryCollection: ExpressibleByArgument {}
extension RetrievalMode: ExpressibleByArgument {}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
