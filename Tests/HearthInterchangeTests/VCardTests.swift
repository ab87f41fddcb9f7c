import Foundation
import HearthCore
import HearthInterchange
import Testing

@Suite struct VCardTests {
  func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)))
  }

  @Test func readsVersion3And4CardsAsOtherProgramsWriteThem() throws {
    let parsed = try VCard.read(fixture("contacts.vcf"))
    let contacts = Dictionary(uniqueKeysWithValues: parsed.items.map { ($0.item.fullName, $0.item) })

    let anna = try #require(contacts["Anna Martin"])
    #expect(anna.id == "anna-martin-uid")
    #expect(anna.givenName == "Anna" && anna.familyName == "Martin")
    #expect(anna.organization == "Acme, Inc.")
    #expect(anna.emails == [LabeledValue("anna@example.org", label: "home")])
    #expect(
      anna.phones == [
        LabeledValue("+33 6 12 34 56 78", label: "cell"), LabeledValue("+33 1 23 45 67 89", label: "work"),
      ])
    #expect(anna.birthday == Birthday(year: 1990, month: 4, day: 12))
    #expect(anna.notes == "Met at the climbing gym; likes tea, not coffee.")
    #expect(anna.updatedAt == Date(timeIntervalSince1970: 1_793_527_200))

    let chloe = try #require(contacts["Chloé Dubois"])
    #expect(chloe.phones == [LabeledValue("+33-6-98-76-54-32", label: "cell")])
    #expect(chloe.birthday == Birthday(year: nil, month: 2, day: 29))

    #expect(contacts["Bao Ng"]?.emails.first?.label == "work")
    #expect(parsed.droppedProperties["PHOTO"] == 1)
    #expect(parsed.droppedProperties["X-ABLabel".uppercased()] == 1)
    #expect(parsed.droppedProperties["ORG units"] == 1)

    #expect(parsed.skipped.count == 2)
    #expect(parsed.skipped.contains { $0.reason.contains("2.1") && $0.item == "Old Format" })
    #expect(parsed.skipped.contains { $0.reason.contains("BDAY") && $0.item == "Broken Birthday" })
  }

  @Test func writesBothVersionsAndReadsThemBack() throws {
    let parsed = try VCard.read(fixture("contacts.vcf"))
    let contacts = parsed.items.map(\.item)
    for version in VCard.Version.allCases {
      let text = VCard.write(contacts, version: version)
      #expect(text.contains("VERSION:\(version.rawValue)\r\n"))
      let back = try VCard.read(Data(text.utf8))
      #expect(back.skipped.isEmpty)
      #expect(back.items.map(\.item) == contacts)
    }
  }

  @Test func refusesOtherFiles() {
    #expect(throws: InterchangeError.self) { try VCard.read(Data("BEGIN:VCALENDAR\r\n".utf8)) }
    #expect(throws: InterchangeError.notUTF8(format: "vCard")) { try VCard.read(Data([0xC3, 0x28])) }
  }
}
