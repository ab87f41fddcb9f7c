import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import Hummingbird

/// The web app's calendar and reminders API. Times in queries and answers are wall-clock times on the
/// profile's clock (`timeZone` in each listing), which is the clock the web app draws.
struct CalendarRoutes<Context: RequestContext>: Sendable {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  private var calendar: CalendarService { dependencies.engine.calendar }
  private var reminders: ReminderService { dependencies.engine.reminders }

  /// One occurrence as the web app draws it.
  struct OccurrenceView: Encodable {
    var event: CalendarEvent
    /// Start and end on the profile's clock.
    var start: String
    var end: String
    var startsAt: Date
    var endsAt: Date

    init(_ occurrence: Occurrence, zone: TimeZone) {
      event = occurrence.event
      let local =
        occurrence.event.isAllDay
        ? (occurrence.start, occurrence.end)
        : (LocalDateTime(occurrence.startsAt, in: zone), LocalDateTime(occurrence.endsAt, in: zone))
      start = local.0.shortDescription
      end = local.1.shortDescription
      startsAt = occurrence.startsAt
      endsAt = occurrence.endsAt
    }
  }

  struct OccurrenceList: Encodable {
    var timeZone: String
    var occurrences: [OccurrenceView]
  }

  struct SavedEventView: Encodable {
    var event: CalendarEvent
    var conflicts: [OccurrenceView]
  }

  struct SlotList: Encodable {
    var timeZone: String
    var slots: [[String: String]]
  }

  func register(on router: Router<Context>) {
    router.get("/api/calendar/occurrences") { request, _ in
      let range = try range(request)
      let zone = calendar.timeZone
      return try JSONResponse.make(
        OccurrenceList(
          timeZone: zone.identifier,
          occurrences: try calendar.occurrences(in: range).map { OccurrenceView($0, zone: zone) }))
    }
    router.get("/api/calendar/events/:id") { _, context in
      try JSONResponse.make(try calendar.event(try context.parameters.require("id")))
    }
    router.post("/api/calendar/events") { request, _ in
      let input = try await RequestReader.decodeStrict(
        EventInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(view(try calendar.create(input.event())), status: .created)
    }
    router.put("/api/calendar/events/:id") { request, context in
      let existing = try calendar.event(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        EventInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(view(try calendar.update(input.event(replacing: existing))))
    }
    router.delete("/api/calendar/events/:id") { _, context in
      try JSONResponse.make(try calendar.delete(try context.parameters.require("id")))
    }
    router.get("/api/calendar/free") { request, _ in
      let minutes = try Self.integer(request, "minimum", default: 30, in: 5...1440)
      let slots = try calendar.freeSlots(in: try range(request), minimum: Double(minutes) * 60)
      let zone = calendar.timeZone
      return try JSONResponse.make(
        SlotList(
          timeZone: zone.identifier,
          slots: slots.map {
            [
              "start": LocalDateTime($0.start, in: zone).shortDescription,
              "end": LocalDateTime($0.end, in: zone).shortDescription,
            ]
          }))
    }
    router.get("/api/calendar/hours") { _, _ in try JSONResponse.make(["hours": try calendar.workingHours()]) }
    router.put("/api/calendar/hours") { request, _ in
      let input = try await RequestReader.decodeStrict(
        WorkingHoursInput.self, from: request, limit: configuration.maxBodyBytes)
      try calendar.setWorkingHours(input.hours)
      return try JSONResponse.make(["hours": input.hours])
    }
    router.post("/api/calendar/import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let events = try calendar.importFile(data)
      let todos = try reminders.importFile(data)
      return try JSONResponse.make(["events": events, "reminders": todos])
    }
    router.get("/api/calendar/export") { _, _ in
      FileResponse.make(try calendar.exportFile(), type: "text/calendar", name: "hearth-calendar.ics")
    }
    registerReminders(on: router)
  }

  private func registerReminders(on router: Router<Context>) {
    router.get("/api/reminders") { request, _ in
      let completed = request.uri.queryParameters.get("completed") != "false"
      let list = request.uri.queryParameters.get("list")
      return try JSONResponse.make(["reminders": try reminders.list(list: list, includeCompleted: completed)])
    }
    router.post("/api/reminders") { request, _ in
      let input = try await RequestReader.decodeStrict(
        ReminderInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try reminders.create(try input.reminder()), status: .created)
    }
    router.put("/api/reminders/:id") { request, context in
      let existing = try reminders.item(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        ReminderInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try reminders.update(try input.reminder(replacing: existing)))
    }
    router.post("/api/reminders/:id/complete") { request, context in
      let input = try await RequestReader.decodeStrict(
        CompletionInput.self, from: request, limit: configuration.maxBodyBytes)
      return try JSONResponse.make(try reminders.complete(try context.parameters.require("id"), done: input.done))
    }
    router.delete("/api/reminders/:id") { _, context in
      try JSONResponse.make(try reminders.delete(try context.parameters.require("id")))
    }
    router.post("/api/reminders/import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      return try JSONResponse.make(try reminders.importFile(data))
    }
    router.get("/api/reminders/export") { _, _ in
      FileResponse.make(try reminders.exportFile(), type: "text/calendar", name: "hearth-reminders.ics")
    }
  }

  private func view(_ saved: SavedEvent) -> SavedEventView {
    SavedEventView(
      event: saved.event, conflicts: saved.conflicts.map { OccurrenceView($0.other, zone: calendar.timeZone) })
  }

  /// `from` and `to` as local date-times (a date alone is midnight); 7 days from today by default.
  private func range(_ request: Request) throws -> DateInterval {
    let zone = calendar.timeZone
    func time(_ name: String) throws -> LocalDateTime? {
      guard let text = request.uri.queryParameters.get(name) else { return nil }
      guard let value = LocalDateTime(parsing: text) else {
        throw APIError.invalidRequest(
          "\(name) must be a local date or date-time such as 2026-12-01T09:00", parameter: name)
      }
      return value
    }
    let start = try time("from") ?? LocalDateTime(startOf: LocalDate(Date(), in: zone))
    let end = try time("to") ?? LocalDateTime(startOf: start.date.adding(days: 7))
    guard end > start, end.date.dayNumber - start.date.dayNumber <= 800 else {
      throw APIError.invalidRequest("to must be after from, at most 800 days later", parameter: "to")
    }
    return DateInterval(start: start.instant(in: zone), end: end.instant(in: zone))
  }

  static func integer(_ request: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int
  {
    guard let text = request.uri.queryParameters.get(name) else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw APIError.invalidRequest(
        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", parameter: name)
    }
    return number
  }
}

/// A download.
enum FileResponse {
  static func make(_ text: String, type: String, name: String) -> Response {
    Response(
      status: .ok,
      headers: [
        .contentType: "\(type); charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\"",
        .cacheControl: "no-store",
      ],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}
