import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import Hummingbird

/// The web app's notes API: list and search, read, create, change, delete, and Markdown files.
struct NoteRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var notes: NoteService { dependencies.engine.notes }

  struct NoteHit: Encodable {
    var note: Note
    var excerpt: String
  }

  var paths: [RouterPath] { ["/api/notes"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      if let query = request.uri.queryParameters.get("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty {
        return try AppJSON.make([
          "hits": try notes.search(query, limit: 50).map { NoteHit(note: $0.note, excerpt: $0.excerpt) }
        ])
      }
      return try AppJSON.make(["notes": try notes.list(tag: request.uri.queryParameters.get("tag"))])
    }
    // A suggestion for the note being written (saved or not): shown, never written.
    router.post("suggest") { request, _ in
      let input = try await RequestReader.decodeStrict(
        NoteSuggestInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(
        try dependencies.engine.suggestion(forNoteTitled: input.title, body: input.body, tags: input.tags ?? []))
    }
    router.get(":id") { _, context in
      try AppJSON.make(try notes.item(try context.parameters.require("id")))
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(NoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try notes.create(input.note()), status: .created)
    }
    router.put(":id") { request, context in
      let existing = try notes.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(NoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try notes.update(input.note(replacing: existing)))
    }
    router.delete(":id") { _, context in
      try AppJSON.make(try notes.delete(try context.parameters.require("id")))
    }
    router.get(":id/export") { _, context in
      let note = try notes.item(try context.parameters.require("id"))
      let name = MarkdownNotes.fileNames(for: [note])[0].unicodeScalars.map {
        $0.isASCII && $0 != "\"" ? String($0) : "_"
      }
      .joined()
      return FileResponse.make(MarkdownNotes.write(note), type: "text/markdown", name: name)
    }
    // One Markdown file per request (`?name=` is its file name): the page sends each file the user picked.
    router.post("import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let name = request.uri.queryParameters.get("name") ?? "imported.md"
      return try AppJSON.make(try notes.importFile(data, name: name))
    }
  }
}

/// The web app's habits API: progress, create, change, delete, and check-ins.
struct HabitRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var habits: HabitService { dependencies.engine.habits }

  var paths: [RouterPath] { ["/api/habits"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let days = try RouteInput.integer(request, "days", default: 30, in: 1...3660)
      return try AppJSON.make(["habits": try habits.overview(windowDays: days)])
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        HabitInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try habits.create(input.habit()), status: .created)
    }
    router.put(":id") { request, context in
      let existing = try habits.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        HabitInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try habits.update(input.habit(replacing: existing)))
    }
    router.delete(":id") { _, context in
      try AppJSON.make(try habits.delete(try context.parameters.require("id")))
    }
    router.post(":id/log") { request, context in
      let id = try context.parameters.require("id")
      let input = try await RequestReader.decodeStrict(
        HabitLogInput.self, from: request, limit: configuration.maxBodyBytes)
      let at = input.at.map { $0.instant(in: dependencies.engine.calendar.timeZone) }
      let log = try habits.log(id, at: at, note: input.note)
      return try AppJSON.make(["log": log], status: .created)
    }
    router.get(":id/logs") { _, context in
      try AppJSON.make(["logs": try habits.logs(try context.parameters.require("id"))])
    }
    router.delete("logs/:logID") { _, context in
      try AppJSON.make(try habits.removeLog(try context.parameters.require("logID")))
    }
  }
}

/// The web app's contacts API: list and search, read, create, change, delete, and vCard files.
struct ContactRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var contacts: ContactService { dependencies.engine.contacts }

  var paths: [RouterPath] { ["/api/contacts"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      if let query = request.uri.queryParameters.get("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty {
        return try AppJSON.make(["contacts": try contacts.search(query, limit: 50)])
      }
      return try AppJSON.make(["contacts": try contacts.list()])
    }
    router.get("export") { request, _ in
      let versionName = request.uri.queryParameters.get("version") ?? "4.0"
      guard let version = VCard.Version(rawValue: versionName) else {
        throw APIError.invalidRequest("version must be 4.0 or 3.0", parameter: "version")
      }
      return FileResponse.make(
        try contacts.exportFile(version: version), type: "text/vcard", name: "hearth-contacts.vcf")
    }
    router.get(":id") { _, context in
      try AppJSON.make(try contacts.item(try context.parameters.require("id")))
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        ContactInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try contacts.create(input.contact()), status: .created)
    }
    router.put(":id") { request, context in
      let existing = try contacts.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        ContactInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try contacts.update(input.contact(replacing: existing)))
    }
    router.delete(":id") { _, context in
      try AppJSON.make(try contacts.delete(try context.parameters.require("id")))
    }
    router.post("import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      return try AppJSON.make(try contacts.importFile(data))
    }
  }
}

struct NoteSuggestInput: StrictInput {
  var title: String
  var body: String
  var tags: [String]?
  enum CodingKeys: String, CodingKey, CaseIterable { case title, body, tags }
}
