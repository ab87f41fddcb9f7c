import Foundation
import Testing

@testable import HearthDAV

@Suite struct MultistatusTests {
  /// Radicale's own answer to a home set's listing (captured from Radicale 3.9.0), with a calendar for events
  /// and to-dos, one for events only and an address book.
  static let homeListing = """
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CR="urn:ietf:params:xml:ns:carddav" \
    xmlns:CS="http://calendarserver.org/ns/" xmlns:ICAL="http://apple.com/ns/ical/">
    <response><href>/alice/</href><propstat><prop><resourcetype><principal/><collection/></resourcetype></prop>\
    <status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname/><C:supported-calendar-component-set/>\
    </prop><status>HTTP/1.1 404 Not Found</status></propstat></response>
    <response><href>/alice/work/</href><propstat><prop><resourcetype><C:calendar/><collection/></resourcetype>\
    <displayname>Work</displayname><C:supported-calendar-component-set><C:comp name="VEVENT"/><C:comp name="VTODO"/>\
    </C:supported-calendar-component-set><CS:getctag>"abc"</CS:getctag><sync-token>http://radicale.org/ns/sync/1</sync-token>\
    <ICAL:calendar-color>#FF8800FF</ICAL:calendar-color></prop><status>HTTP/1.1 200 OK</status></propstat></response>
    <response><href>/alice/holidays/</href><propstat><prop><resourcetype><collection/><C:calendar/></resourcetype>\
    <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></prop>\
    <status>HTTP/1.1 200 OK</status></propstat></response>
    <response><href>/alice/contacts/</href><propstat><prop><resourcetype><CR:addressbook/><collection/></resourcetype>\
    <displayname>Contacts</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response>
    </multistatus>
    """

  @Test func readsResponsesWithTheirPropertiesAndSkipsThoseNotFound() throws {
    let answer = try Multistatus.parse(Data(Self.homeListing.utf8))
    #expect(answer.responses.map(\.href) == ["/alice/", "/alice/work/", "/alice/holidays/", "/alice/contacts/"])
    let home = answer.responses[0]
    #expect(home.properties[.dav("displayname")] == nil)
    #expect(home.text(.dav("displayname")) == nil)
    #expect(answer.responses[1].text(.dav("displayname")) == "Work")
  }

  @Test func findsCalendarsTaskListsAndAddressBooks() throws {
    let answer = try Multistatus.parse(Data(Self.homeListing.utf8))
    let found = answer.responses.flatMap(DAVDiscovery.collections(from:))
    #expect(found.map(\.href) == ["/alice/work/", "/alice/work/", "/alice/holidays/", "/alice/contacts/"])
    #expect(found.map(\.content) == [.events, .todos, .events, .contacts])
    #expect(found[0].ctag == "\"abc\"")
    #expect(found[0].offersSyncToken)
    #expect(!found[2].offersSyncToken)
    #expect(found[0].color == "#FF8800")
    // No display name: the last part of the path.
    #expect(found[2].displayName == "holidays")
  }

  @Test func readsASyncReportWithRemovedMembersAndTheNewToken() throws {
    let body = """
      <?xml version="1.0" encoding="utf-8" ?>
      <d:multistatus xmlns:d="DAV:">
        <d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop>
          <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
        <d:response><d:href>/cal/b.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
        <d:sync-token>http://example.com/sync/7</d:sync-token>
      </d:multistatus>
      """
    let answer = try Multistatus.parse(Data(body.utf8))
    #expect(answer.syncToken == "http://example.com/sync/7")
    #expect(answer.responses[0].text(.dav("getetag")) == "\"1\"")
    #expect(!answer.responses[0].isGone)
    #expect(answer.responses[1].isGone)
  }

  @Test func refusesWhatIsNotAMultistatus() {
    #expect(throws: DAVError.self) { try Multistatus.parse(Data("<html><body>login</body></html>".utf8)) }
    #expect(throws: DAVError.self) { try Multistatus.parse(Data("not xml at all <".utf8)) }
  }

  @Test func keepsCalendarDataWhole() throws {
    let body = """
      <?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response>\
      <href>/cal/a.ics</href><propstat><prop><getetag>"2"</getetag><C:calendar-data>BEGIN:VCALENDAR\r
      SUMMARY:Tom &amp; Jerry\r
      END:VCALENDAR\r
      </C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
      """
    let answer = try Multistatus.parse(Data(body.utf8))
    let data = try #require(answer.responses.first?.text(.caldav("calendar-data")))
    #expect(data.contains("SUMMARY:Tom & Jerry"))
    #expect(data.hasPrefix("BEGIN:VCALENDAR"))
  }

  @Test func comparesPathsAsServersWriteThem() {
    #expect(DAVPath.normalized("/alice/work/") == DAVPath.normalized("/alice/work"))
    #expect(DAVPath.normalized("https://dav.example.com/alice/a%20b.ics") == "/alice/a b.ics")
    #expect(DAVPath.member("x.ics", in: "/alice/work") == "/alice/work/x.ics")
  }

  @Test func escapesHrefsInRequestBodies() {
    let body = DAVBodies.multiget(["/cal/a&b.ics"], content: .events)
    #expect(body.contains("<d:href>/cal/a&amp;b.ics</d:href>"))
    #expect(body.contains("calendar-multiget"))
  }
}
