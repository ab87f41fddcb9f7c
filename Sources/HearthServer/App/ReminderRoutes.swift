import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// The web app's reminders API: list, read, create, change, complete, delete, and iCalendar to-do files.
struct ReminderRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var reminders: ReminderService { dependencies.engine.reminders }

  var paths: [RouterPath] { ["/api/reminders"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get { request, _ in
      let completed = request.uri.queryParameters.get("completed") != "false"
      let list = request.uri.queryParameters.get("list")
      return try AppJSON.make(["reminders": try reminders.list(list: list, includeCompleted: completed)])
    }
    router.post { request, _ in
      let input = try await RequestReader.decodeStrict(
        ReminderInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try reminders.create(try input.reminder()), status: .created)
    }
    router.get(":id") { _, context in
      try AppJSON.make(try reminders.item(try context.parameters.require("id")))
    }
    router.put(":id") { request, context in
      let existing = try reminders.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        ReminderInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try reminders.update(try input.reminder(replacing: existing)))
    }
    router.post(":id/complete") { request, context in
      let input = try await RequestReader.decodeStrict(
        CompletionInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(try reminders.complete(try context.parameters.require("id"), done: input.done))
    }
    router.delete(":id") { _, context in
      try AppJSON.make(try reminders.delete(try context.parameters.require("id")))
    }
    router.post("import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      return try AppJSON.make(try reminders.importFile(data))
    }
    router.get("export") { _, _ in
      FileResponse.make(try reminders.exportFile(), type: "text/calendar", name: "hearth-reminders.ics")
    }
  }
}
