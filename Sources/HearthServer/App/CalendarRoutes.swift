import Foundation
import HearthCore
import HearthEngine
import HearthInterchange
import Hummingbird

/// The web app's calendar API (its import also reads the file's to-dos into the reminders). Times in queries
/// and answers are wall-clock times on the profile's clock (`timeZone` in each listing), which is the clock
/// the web app draws.
struct CalendarRoutes<Context: RequestContext>: RouteArea {
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
    /// The start on the event's own clock: what its `exceptions` name to leave this occurrence out of the series.
    var seriesStart: String
    var startsAt: Date
    var endsAt: Date

    init(_ occurrence: Occurrence, zone: TimeZone) {
      event = occurrence.event
      seriesStart = occurrence.start.shortDescription
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

  var paths: [RouterPath] { ["/api/calendar"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.get("occurrences") { request, _ in
      let range = try range(request)
      let zone = calendar.timeZone
      return try AppJSON.make(
        OccurrenceList(
          timeZone: zone.identifier,
          occurrences: try calendar.occurrences(in: range).map { OccurrenceView($0, zone: zone) }))
    }
    router.get("events/:id") { _, context in
      try AppJSON.make(try calendar.event(try context.parameters.require("id")))
    }
    router.post("events") { request, _ in
      let input = try await RequestReader.decodeStrict(
        EventInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(view(try calendar.create(input.event())), status: .created)
    }
    router.put("events/:id") { request, context in
      let existing = try calendar.event(try context.parameters.require("id"))
      let input = try await RequestReader.decodeStrict(
        EventInput.self, from: request, limit: configuration.maxBodyBytes)
      return try AppJSON.make(view(try calendar.update(input.event(replacing: existing))))
    }
    router.delete("events/:id") { _, context in
      try AppJSON.make(try calendar.delete(try context.parameters.require("id")))
    }
    router.get("free") { request, _ in
      let minutes = try RouteInput.integer(request, "minimum", default: 30, in: 5...1440)
      let slots = try calendar.freeSlots(in: try range(request), minimum: Double(minutes) * 60)
      let zone = calendar.timeZone
      return try AppJSON.make(
        SlotList(
          timeZone: zone.identifier,
          slots: slots.map {
            [
              "start": LocalDateTime($0.start, in: zone).shortDescription,
              "end": LocalDateTime($0.end, in: zone).shortDescription,
            ]
          }))
    }
    router.get("hours") { _, _ in try AppJSON.make(["hours": try calendar.workingHours()]) }
    router.put("hours") { request, _ in
      let input = try await RequestReader.decodeStrict(
        WorkingHoursInput.self, from: request, limit: configuration.maxBodyBytes)
      try calendar.setWorkingHours(input.hours)
      return try AppJSON.make(["hours": input.hours])
    }
    router.post("import") { request, _ in
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let events = try calendar.importFile(data)
      let todos = try reminders.importFile(data)
      return try AppJSON.make(["events": events, "reminders": todos])
    }
    router.get("export") { _, _ in
      FileResponse.make(try calendar.exportFile(), type: "text/calendar", name: "hearth-calendar.ics")
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
