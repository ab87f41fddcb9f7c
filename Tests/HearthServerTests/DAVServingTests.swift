import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthStore
import HearthTestSupport
import NIOHTTP1
import Testing

/// Hearth as a CalDAV/CardDAV server, through the real router: discovery, listing, stored bodies coming back as
/// stored, entity tags that follow every change, conditional writes, sync tokens, and hostile XML refused.
@Suite("Hearth serves its calendars, lists and contacts over CalDAV and CardDAV")
struct DAVServingTests {
  static let key = "dav-serving-test-key-0123456789"
  /// A calendar app sends the key (or a device's secret) as the password of Basic authentication.
  private let basic = ("Authorization", "Basic " + Data("phone:\(Self.key)".utf8).base64EncodedString())

  static let event = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Phone//Calendar 1.0//EN\r
    BEGIN:VEVENT\r
    UID:swim-1@phone.example\r
    DTSTAMP:20261201T090000Z\r
    DTSTART:20261208T070000Z\r
    DTEND:20261208T080000Z\r
    SUMMARY:Swim\r
    RRULE:FREQ=WEEKLY;BYDAY=TU\r
    X-PHONE-COLOR:teal\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Swim\r
    TRIGGER:-PT15M\r
    END:VALARM\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

  private func propfind(
    _ live: LiveServer, _ path: String, depth: String, props: String
  ) async throws
    -> LiveServer.Reply
  {
    let body = """
      <?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
      xmlns:cs="http://calendarserver.org/ns/"><d:prop>\(props)</d:prop></d:propfind>
      """
    return try await live.request(
      .RAW(value: "PROPFIND"), path, body: body,
      headers: [basic, ("Depth", depth), ("Content-Type", "application/xml")])
  }

  private func put(
    _ live: LiveServer, _ path: String, _ body: String, _ headers: [(String, String)] = []
  )
    async throws -> LiveServer.Reply
  {
    try await live.request(.PUT, path, body: body, headers: [basic, ("Content-Type", "text/calendar")] + headers)
  }

  private func sync(_ live: LiveServer, _ token: String) async throws -> LiveServer.Reply {
    let body = """
      <?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token>\
      <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
      """
    return try await live.request(
      .RAW(value: "REPORT"), "/dav/calendars/Personal/", body: body,
      headers: [basic, ("Content-Type", "application/xml")])
  }

  private func query(_ live: LiveServer, _ start: String, _ end: String) async throws -> String {
    let body = """
      <?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
      <d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR">\
      <c:comp-filter name="VEVENT"><c:time-range start="\(start)" end="\(end)"/></c:comp-filter>\
      </c:comp-filter></c:filter></c:calendar-query>
      """
    return try await live.request(
      .RAW(value: "REPORT"), "/dav/calendars/Personal/", body: body,
      headers: [basic, ("Content-Type", "application/xml")]
    ).body
  }

  @Test func discoveryLeadsFromTheServersRootToEachCalendarAndList() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let unasked = try await live.request(.RAW(value: "PROPFIND"), "/dav/", headers: [("Depth", "0")])
      #expect(unasked.status == 401)
      #expect(unasked.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
      let rootUnasked = try await live.request(.RAW(value: "PROPFIND"), "/", headers: [("Depth", "0")])
      #expect(rootUnasked.status == 401, "the root's PROPFIND reaches the user's principal: it needs the key")

      let wellKnown = try await live.request(.GET, "/.well-known/caldav", headers: [basic])
      #expect(wellKnown.status == 301)
      #expect(wellKnown.header("Location") == "/dav/")
      let root = try await propfind(live, "/", depth: "0", props: "<d:current-user-principal/>")
      #expect(root.status == 207)
      #expect(root.body.contains("<d:current-user-principal><d:href>/dav/principal/</d:href>"), "\(root.body)")
      let principal = try await propfind(live, "/dav/principal/", depth: "0", props: "<c:calendar-home-set/>")
      #expect(principal.body.contains("<c:calendar-home-set><d:href>/dav/calendars/</d:href>"), "\(principal.body)")

      _ = try live.engine.reminders.create(Reminder(title: "Buy milk", list: "Shopping"))
      let home = try await propfind(
        live, "/dav/calendars/", depth: "1",
        props: "<d:displayname/><d:resourcetype/><c:supported-calendar-component-set/><cs:getctag/><d:sync-token/>")
      #expect(home.status == 207)
      for expected in [
        "<d:href>/dav/calendars/Personal/</d:href>", "<d:href>/dav/calendars/tasks~Reminders/</d:href>",
        "<d:href>/dav/calendars/tasks~Shopping/</d:href>", "<d:displayname>Shopping</d:displayname>",
        "<c:comp name=\"VTODO\"/>", "<c:comp name=\"VEVENT\"/>", "https://hearth.invalid/sync/",
      ] {
        #expect(home.body.contains(expected), "\(expected) in \(home.body)")
      }
      let options = try await live.request(.OPTIONS, "/dav/calendars/Personal/", headers: [basic])
      #expect(options.header("DAV")?.contains("calendar-access") == true)
      #expect(options.header("DAV")?.contains("addressbook") == true)
    }
  }

  @Test func aStoredEventComesBackAsStoredAndItsTagFollowsChangesFromAnySurface() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let path = "/dav/calendars/Personal/swim.ics"
      let created = try await put(live, path, Self.event, [("If-None-Match", "*")])
      #expect(created.status == 201, "\(created.body)")
      let tag = try #require(created.header("ETag"))
      let event = try #require(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example"))
      #expect(event.title == "Swim")
      #expect(event.recurrence != nil)

      let read = try await live.request(.GET, path, headers: [basic])
      #expect(read.status == 200)
      #expect(read.body == Self.event, "the phone's own lines (its alarm, X-PHONE-COLOR) come back untouched")
      #expect(read.header("ETag") == tag)

      // Created again with If-None-Match: * is refused; so is an edit with a stale tag.
      #expect(try await put(live, path, Self.event, [("If-None-Match", "*")]).status == 412)
      let stale = try await put(
        live, path, Self.event.replacingOccurrences(of: "SUMMARY:Swim", with: "SUMMARY:Stale"),
        [("If-Match", "\"0123\"")])
      #expect(stale.status == 412)
      #expect(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example")?.title == "Swim")

      // Changed in Hearth (the web app, the assistant): a new tag, the title patched into the phone's body.
      var renamed = event
      renamed.title = "Swim practice"
      renamed.updatedAt = event.updatedAt.addingTimeInterval(60)
      _ = try live.engine.calendar.update(renamed)
      let after = try await live.request(.GET, path, headers: [basic])
      #expect(after.header("ETag") != tag)
      #expect(after.body.contains("SUMMARY:Swim practice"))
      #expect(after.body.contains("X-PHONE-COLOR:teal") && after.body.contains("TRIGGER:-PT15M"))

      // The phone's write with the tag it read is taken.
      let edited = after.body.replacingOccurrences(of: "SUMMARY:Swim practice", with: "SUMMARY:Swim with Ana")
      let taken = try await put(live, path, edited, [("If-Match", try #require(after.header("ETag")))])
      #expect(taken.status == 204)
      #expect(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example")?.title == "Swim with Ana")

      // A second member with the same UID is a conflict; a to-do does not go into a calendar of events.
      #expect(try await put(live, "/dav/calendars/Personal/other.ics", Self.event).status == 409)
      let todo = Self.event.replacingOccurrences(of: "VEVENT", with: "VTODO")
        .replacingOccurrences(of: "swim-1", with: "todo-1")
      #expect(try await put(live, "/dav/calendars/Personal/todo.ics", todo).status == 403)

      let removed = try await live.request(.DELETE, path, headers: [basic, ("If-Match", "\"old\"")])
      #expect(removed.status == 412)
      #expect(try await live.request(.DELETE, path, headers: [basic]).status == 204)
      #expect(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example") == nil)
      #expect(try await live.request(.GET, path, headers: [basic]).status == 404)
    }
  }

  @Test func aSyncTokenReportsWhatChangedAndWhatWasRemovedSinceIt() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let dentist = try live.engine.calendar.create(
        CalendarEvent(
          title: "Dentist", start: LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 9)!, hour: 9, minute: 0)!,
          end: LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 9)!, hour: 10, minute: 0)!)
      ).event
      let first = try await sync(live, "")
      #expect(first.status == 207)
      #expect(first.body.contains("/dav/calendars/Personal/\(dentist.id).ics"))
      let token = try #require(first.body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1).description

      let unchanged = try await sync(live, token)
      #expect(!unchanged.body.contains("<d:response>"), "\(unchanged.body)")

      #expect(try await put(live, "/dav/calendars/Personal/swim.ics", Self.event).status == 201)
      _ = try live.engine.calendar.delete(dentist.id)
      let later = try await sync(live, token)
      #expect(later.body.contains("/dav/calendars/Personal/swim.ics</d:href><d:propstat>"), "\(later.body)")
      #expect(
        later.body.contains(
          "<d:href>/dav/calendars/Personal/\(dentist.id).ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
      // A token for an entry the journal does not hold, or whose nonce is another's (a backup restored rewinds
      // the journal), makes the client start over rather than miss changes.
      for stale in ["https://hearth.invalid/sync/999999-00", token.replacingOccurrences(of: "-", with: "-ff"), "x"] {
        let invalid = try await sync(live, stale)
        #expect(invalid.status == 403, "\(stale)")
        #expect(invalid.body.contains("valid-sync-token"))
      }
    }
  }

  @Test func aCalendarQueryFiltersByTimeRangeAcrossOccurrences() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let created = try await put(live, "/dav/calendars/Personal/swim.ics", Self.event)
      #expect(created.status == 201)
      // The weekly swim's third Tuesday, a month later than the first, is found; a Monday is not.
      let tuesday = try await query(live, "20261222T000000Z", "20261223T000000Z")
      #expect(tuesday.contains("SUMMARY:Swim"), "\(tuesday)")
      let monday = try await query(live, "20261221T000000Z", "20261222T000000Z")
      #expect(!monday.contains("swim.ics"), "\(monday)")
    }
  }

  @Test func aNewListIsMadeAndContactsAreServedAsCards() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let make = """
        <?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>\
        <d:displayname>Errands</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/>\
        </c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>
        """
      let made = try await live.request(
        .RAW(value: "MKCALENDAR"), "/dav/calendars/9B1D-errands/", body: make,
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(made.status == 201)
      let todo = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Phone//Reminders//EN\r
        BEGIN:VTODO\r
        UID:post-1\r
        DTSTAMP:20261201T090000Z\r
        SUMMARY:Post the parcel\r
        DUE;VALUE=DATE:20261210\r
        END:VTODO\r
        END:VCALENDAR\r

        """
      #expect(try await put(live, "/dav/calendars/9B1D-errands/post.ics", todo).status == 201)
      let reminder = try #require(try live.database.item(Reminder.self, id: "post-1"))
      #expect(reminder.list == "Errands")
      #expect(reminder.title == "Post the parcel")
      // Deleted from the phone, the list goes with what it holds.
      let dropped = try await live.request(.DELETE, "/dav/calendars/9B1D-errands/", headers: [basic])
      #expect(dropped.status == 204)
      #expect(try live.database.item(Reminder.self, id: "post-1") == nil)
      #expect(try await live.request(.GET, "/dav/calendars/9B1D-errands/post.ics", headers: [basic]).status == 404)
      let addressBook = try await live.request(.DELETE, "/dav/contacts/addressbook/", headers: [basic])
      #expect(addressBook.status == 403)

      let contact = try live.engine.contacts.create(
        Contact(fullName: "Ana Lima", emails: [LabeledValue("ana@example.com")]))
      let card = try await live.request(.GET, "/dav/contacts/addressbook/\(contact.id).vcf", headers: [basic])
      #expect(card.status == 200)
      #expect(card.body.contains("FN:Ana Lima"))
      #expect(card.header("Content-Type")?.hasPrefix("text/vcard") == true)
      let search = """
        <?xml version="1.0"?><card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
        <d:prop><d:getetag/><card:address-data/></d:prop><card:filter><card:prop-filter name="EMAIL">\
        <card:text-match match-type="contains">ana@</card:text-match></card:prop-filter></card:filter>\
        </card:addressbook-query>
        """
      let found = try await live.request(
        .RAW(value: "REPORT"), "/dav/contacts/addressbook/", body: search,
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(found.status == 207)
      #expect(found.body.contains("FN:Ana Lima"))
    }
  }

  @Test func hostileXMLIsRefusedAndChangesNothing() async throws {
    try await LiveServer.inProcess(
      configuration: ServerConfiguration(port: 0, apiKey: Self.key, maxBodyBytes: 64 << 10)
    ) { live in
      let laughs = """
        <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\
        <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>\
        <d:displayname>&lol2;</d:displayname></d:prop></d:set></c:mkcalendar>
        """
      let external = """
        <?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\
        <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&xxe;</d:displayname></d:prop></d:propfind>
        """
      let deep =
        "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\">" + String(repeating: "<d:prop>", count: 500)
        + String(repeating: "</d:prop>", count: 500) + "</d:propfind>"
      let huge =
        "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop>"
        + String(repeating: "<d:displayname/>", count: 8000) + "</d:prop></d:propfind>"
      let lower = laughs.replacingOccurrences(of: "<!DOCTYPE", with: "<!DocType")
      let cases: [(String, Data, Int)] = [
        ("MKCALENDAR", Data(laughs.utf8), 400), ("MKCALENDAR", Data(lower.utf8), 400),
        // The same document in UTF-16, whose declaration a byte search for `<!DOCTYPE` would not see.
        (
          "MKCALENDAR",
          laughs.replacingOccurrences(of: "1.0\"?>", with: "1.0\" encoding=\"UTF-16\"?>")
            .data(using: .utf16)!, 400
        ),
        ("PROPFIND", Data(external.utf8), 400), ("PROPFIND", Data(deep.utf8), 400), ("PROPFIND", Data(huge.utf8), 413),
      ]
      for (method, body, status) in cases {
        let reply = try await live.request(
          .RAW(value: method), "/dav/calendars/Laughs/", bytes: body,
          headers: [basic, ("Content-Type", "application/xml"), ("Depth", "0")])
        #expect(reply.status == status, "\(method) \(body.count) bytes → \(reply.status) \(reply.body)")
        #expect(!reply.body.contains("root:"))
      }
      let home = try await propfind(live, "/dav/calendars/", depth: "1", props: "<d:displayname/>")
      #expect(!home.body.contains("Laughs") && !home.body.contains("lol"))
    }
  }

  @Test func queriesAreBoundedAndAPropertyChangeIsAllOrNothing() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let created = try await put(live, "/dav/calendars/Personal/swim.ics", Self.event)
      #expect(created.status == 201)
      func cards(_ limit: String) -> String {
        """
        <?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
        xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop>\
        <card:limit><card:nresults>\(limit)</card:nresults></card:limit></c:calendar-query>
        """
      }
      let negative = try await live.request(
        .RAW(value: "REPORT"), "/dav/calendars/Personal/", body: cards("-1"),
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(negative.status == 400, "a negative limit is refused, not a crash")
      let none = try await live.request(
        .RAW(value: "REPORT"), "/dav/calendars/Personal/", body: cards("0"),
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(none.body.contains("507 Insufficient Storage"), "\(none.body)")
      // An open-ended range over a weekly series without end answers at once.
      let open = try await query(live, "20261201T000000Z", "")
      #expect(open.contains("swim.ics"))

      let patch = """
        <?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:i="http://apple.com/ns/ical/"><d:set><d:prop>\
        <i:calendar-color>#00FF00</i:calendar-color><d:displayname>Renamed</d:displayname></d:prop></d:set>\
        </d:propertyupdate>
        """
      let refused = try await live.request(
        .RAW(value: "PROPPATCH"), "/dav/calendars/Personal/", body: patch,
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(refused.body.contains("403 Forbidden") && refused.body.contains("424 Failed Dependency"))
      let kept = patch.replacingOccurrences(of: "<d:displayname>Renamed</d:displayname>", with: "")
        .replacingOccurrences(
          of: "</i:calendar-color>", with: "</i:calendar-color><i:calendar-order>3</i:calendar-order>")
      let taken = try await live.request(
        .RAW(value: "PROPPATCH"), "/dav/calendars/Personal/", body: kept,
        headers: [basic, ("Content-Type", "application/xml")])
      #expect(taken.body.contains("200 OK") && !taken.body.contains("424"))
      let shown = try await propfind(
        live, "/dav/calendars/Personal/", depth: "0",
        props:
          "<i:calendar-color xmlns:i=\"http://apple.com/ns/ical/\"/><i:calendar-order xmlns:i=\"http://apple.com/ns/ical/\"/>"
      )
      #expect(shown.body.contains("#00FF00") && shown.body.contains(">3<"), "\(shown.body)")
    }
  }

  @Test func aMoveAnUndoAndAnEmptyJournalAreReportedToSyncingClients() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      // A token taken before the first change counts every change after it.
      let empty = try await sync(live, "")
      let first = try #require(empty.body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1).description
      #expect(first.hasSuffix("/0-"), "\(first)")
      #expect(try await put(live, "/dav/calendars/Personal/swim.ics", Self.event).status == 201)
      let token = try #require(try await sync(live, first).body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1)
        .description

      // Deleted in Hearth and put back (an undo): the phone is told its name went and the item's is new.
      let event = try #require(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example"))
      _ = try live.engine.calendar.delete(event.id)
      try live.engine.calendar.restore(event)
      let undone = try await sync(live, token)
      #expect(undone.body.contains("swim.ics</d:href><d:status>HTTP/1.1 404"), "\(undone.body)")
      #expect(undone.body.contains("swim-1@phone.example.ics</d:href><d:propstat>"), "\(undone.body)")

      // Written into another calendar, the item moves there; its old calendar reports it gone.
      let make = try await live.request(.RAW(value: "MKCALENDAR"), "/dav/calendars/work/", headers: [basic])
      #expect(make.status == 201)
      let moved = try await put(live, "/dav/calendars/work/swim.ics", Self.event)
      #expect(moved.status == 201, "\(moved.body)")
      #expect(try live.database.item(CalendarEvent.self, id: "swim-1@phone.example")?.calendar == "work")
      let after = try #require(undone.body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1).description
      #expect(try await sync(live, after).body.contains("swim-1@phone.example.ics</d:href><d:status>HTTP/1.1 404"))
      // A second member with the same UID in one calendar is still a conflict.
      #expect(try await put(live, "/dav/calendars/work/again.ics", Self.event).status == 409)

      // An id with `@` is found under either spelling.
      let spelled = try await live.request(.GET, "/dav/calendars/work/swim.ics", headers: [basic])
      #expect(spelled.status == 200)
      let noon = LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 9)!, hour: 12)!
      _ = try live.engine.calendar.create(
        CalendarEvent(id: "abc@example.com", title: "Lunch", start: noon, end: noon.adding(seconds: 3600)))
      let encoded = try await live.request(.GET, "/dav/calendars/Personal/abc%40example.com.ics", headers: [basic])
      #expect(encoded.status == 200 && encoded.body.contains("SUMMARY:Lunch"))
      // Written under that spelling, it keeps the name it is served under: other clients do not see it twice.
      let changed = encoded.body.replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Lunch with Ana")
      let written = try await put(live, "/dav/calendars/Personal/abc%40example.com.ics", changed)
      #expect(written.status == 204)
      let listing = try await propfind(live, "/dav/calendars/Personal/", depth: "1", props: "<d:getetag/>")
      #expect(listing.body.contains("/dav/calendars/Personal/abc@example.com.ics<"), "\(listing.body)")
      #expect(!listing.body.contains("abc%40example.com.ics"), "\(listing.body)")
    }
  }

  @Test func anAppPasswordReachesTheCalendarsAndNothingElse() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let added = try live.engine.devices.addAppPassword(name: "Phone calendar")
      let password = ("Authorization", "Basic " + Data("x:\(added.secret)".utf8).base64EncodedString())
      let calendars = try await live.request(.RAW(value: "PROPFIND"), "/dav/calendars/", headers: [password])
      #expect(calendars.status == 207)
      for path in ["/api/sessions", "/api/devices", "/v1/models", "/api/calendar/events"] {
        let refused = try await live.request(.GET, path, headers: [password])
        #expect(refused.status == 403, "\(path) → \(refused.status)")
      }
      let more = try await live.request(
        .POST, "/api/devices/app-passwords", body: #"{"name":"another"}"#, headers: [password])
      #expect(more.status == 403)
    }
  }

  @Test func aTokenOlderThanTheKeptJournalMakesItsClientStartOver() async throws {
    try await LiveServer.inProcess(configuration: ServerConfiguration(port: 0, apiKey: Self.key)) { live in
      let empty = try #require(try await sync(live, "").body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1).description
      #expect(try await put(live, "/dav/calendars/Personal/swim.ics", Self.event).status == 201)
      let older = try #require(try await sync(live, "").body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1).description
      let noon = LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 9)!, hour: 12)!
      for title in ["One", "Two", "Three"] {
        _ = try live.engine.calendar.create(CalendarEvent(title: title, start: noon, end: noon.adding(seconds: 600)))
      }
      let newest = try #require(try await sync(live, "").body.firstMatch(of: /<d:sync-token>([^<]+)</)?.1)
        .description
      #expect(try live.database.pruneServedChanges(keeping: 2) == 2)
      // The entries a token names are gone: its client is told to start over rather than miss the changes.
      for stale in [empty, older] {
        let refused = try await sync(live, stale)
        #expect(refused.status == 403 && refused.body.contains("valid-sync-token"), "\(stale): \(refused.body)")
      }
      let current = try await sync(live, newest)
      #expect(current.status == 207)
      #expect(!current.body.contains("<d:response>"))
    }
  }
}
