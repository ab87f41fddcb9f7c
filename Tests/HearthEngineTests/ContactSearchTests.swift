import Foundation
import HearthCore
import HearthEngine
import HearthTestSupport
import Testing

@Suite("Contacts found by name or by phone number")
struct ContactSearchTests {
  @Test func digitsFindAPhoneNumberHoweverItIsWritten() async throws {
    let engine = try await Engine.open(
      EngineConfiguration(paths: HearthPaths(home: try TestModels.temporaryDirectory()), environment: [:]))
    _ = try engine.contacts.create(
      Contact(fullName: "Anna Martin", phones: [LabeledValue("+33 6 12 34 56 78", label: "mobile")]))
    _ = try engine.contacts.create(Contact(fullName: "Ben Okafor", phones: [LabeledValue("(555) 010-2030")]))
    #expect(try engine.contacts.search("612 34").map(\.fullName) == ["Anna Martin"])
    #expect(try engine.contacts.search("+33 6 12").map(\.fullName) == ["Anna Martin"])
    #expect(try engine.contacts.search("555-010").map(\.fullName) == ["Ben Okafor"])
    // Written as dialled at home, with the trunk 0, it still finds the international form.
    #expect(try engine.contacts.search("06 12 34 56").map(\.fullName) == ["Anna Martin"])
    #expect(try engine.contacts.search("06 12 99").isEmpty)
    #expect(try engine.contacts.search("anna").map(\.fullName) == ["Anna Martin"])
    // Two digits are too few to mean a number.
    #expect(try engine.contacts.search("12").isEmpty)
  }
}
