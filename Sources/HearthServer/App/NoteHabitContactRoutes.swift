import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import Hummingbird

/// The web app's notes, habits and contacts API.
struct NoteHabitContactRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var notes: NoteService { dependencies.engine.notes }
  private var habits: HabitService { dependencies.engine.habits }
  private var contacts: ContactService { dependencies.engine.contacts }

  struct NoteHit: Encodable {
    var note: Note
    var excerpt: String
  }

  func register(on router: Router<Context>) {
    registerNotes(on: router)
    registerHabits(on: router)
    registerContacts(on: router)
  }

  private func registerNotes(on router: Router<Context>) {
    router.get("/api/notes") { request, _ in
      if let query = request.uri.queryParameters.get("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty {
        return try JSONResponse.make([
          "hits": try notes.search(query, limit: 50).map { NoteHit(note: $0.note, excerpt: $0.excerpt) }
        ])
      }
      return try JSONResponse.make(["notes": try notes.list(tag: request.uri.queryParameters.get("tag"))])
    }
    router.get("/api/notes/:id") { _, context in
      try JSONResponse.make(try notes.item(try context.parameters.require("id")))
    }
    router.post("/api/notes") { request, _ in
      let input = try await RequestReader.decodeStrict(NoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try notes.create(input.note()), status: .created)
    }
    router.put("/api/notes/:id") { request, context in
      let existing = try notes.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(NoteInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try notes.update(input.note(replacing: existing)))
    }
    router.delete("/api/notes/:id") { _, context in
      try JSONResponse.make(try notes.delete(try context.parameters.require("id")))
    }
    router.get("/api/notes/:id/export") { _, context in
      let note = try notes.item(try context.parameters.require("id"))
      let name = MarkdownNotes.fileNames(for: [note])[0].unicodeScalars.map {
        $0.isASCII && $0 != "\"" ? String($0) : "_"
      }
      .joined()
      return FileResponse.make(MarkdownNotes.write(note), type: "text/markdown", name: name)
    }
    // One Markdown file per request (`?name=` is its file name): the page sends each file the user picked.
    router.post("/api/notes/import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let name = request.uri.queryParameters.get("name") ?? "imported.md"
      return try JSONResponse.make(try notes.importFile(data, name: name))
    }
  }

  private func registerHabits(on router: Router<Context>) {
    router.get("/api/habits") { request, _ in
      let days = try CalendarRoutes<Context>.integer(request, "days", default: 30, in: 1...3660)
      return try JSONResponse.make(["habits": try habits.overview(windowDays: days)])
    }
    router.post("/api/habits") { request, _ in
      let input = try await RequestReader.decodeStrict(
        HabitInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try habits.create(input.habit()), status: .created)
    }
    router.put("/api/habits/:id") { request, context in
      let existing = try habits.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        HabitInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try habits.update(input.habit(replacing: existing)))
    }
    router.delete("/api/habits/:id") { _, context in
      try JSONResponse.make(try habits.delete(try context.parameters.require("id")))
    }
    router.post("/api/habits/:id/log") { request, context in
      let id = try context.parameters.require("id")
      let input = try await RequestReader.decodeStrict(
        HabitLogInput.self, from: request, limit: configuration.maxBodyBytes)
      let at = input.at.map { $0.instant(in: dependencies.engine.calendar.timeZone) }
      let log = try habits.log(id, at: at, note: input.note)
      return try JSONResponse.make(["log": log], status: .created)
    }
    router.get("/api/habits/:id/logs") { _, context in
      try JSONResponse.make(["logs": try habits.logs(try context.parameters.require("id"))])
    }
    router.delete("/api/habits/logs/:logID") { _, context in
      try JSONResponse.make(try habits.removeLog(try context.parameters.require("logID")))
    }
  }

  private func registerContacts(on router: Router<Context>) {
    router.get("/api/contacts") { request, _ in
      if let query = request.uri.queryParameters.get("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty {
        return try JSONResponse.make(["contacts": try contacts.search(query, limit: 50)])
      }
      return try JSONResponse.make(["contacts": try contacts.list()])
    }
    router.get("/api/contacts/export") { request, _ in
      let versionName = request.uri.queryParameters.get("version") ?? "4.0"
      guard let version = VCard.Version(rawValue: versionName) else {
        throw APIError.invalidRequest("version must be 4.0 or 3.0", parameter: "version")
      }
      return FileResponse.make(
        try contacts.exportFile(version: version), type: "text/vcard", name: "hearth-contacts.vcf")
    }
    router.get("/api/contacts/:id") { _, context in
      try JSONResponse.make(try contacts.item(try context.parameters.require("id")))
    }
    router.post("/api/contacts") { request, _ in
      let input = try await RequestReader.decodeStrict(
        ContactInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try contacts.create(input.contact()), status: .created)
    }
    router.put("/api/contacts/:id") { request, context in
      let existing = try contacts.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        ContactInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try contacts.update(input.contact(replacing: existing)))
    }
    router.delete("/api/contacts/:id") { _, context in
      try JSONResponse.make(try contacts.delete(try context.parameters.require("id")))
    }
    router.post("/api/contacts/import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      return try JSONResponse.make(try contacts.importFile(data))
    }
  }
}
