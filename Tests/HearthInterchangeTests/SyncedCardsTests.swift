import Foundation
import HearthCore
import Testing

@testable import HearthInterchange

/// A contact written back into the phone's own card: one phone number or address changed, removed or added
/// leaves the card's other lines of that property as the phone wrote them.
@Suite struct SyncedCardsTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static let card =
    [
      "BEGIN:VCARD", "VERSION:4.0", "UID:c2", "FN:Dr. Ana Maria Lima PhD", "N:Lima;Ana;Maria;Dr.;PhD",
      "item1.TEL;TYPE=pref,cell:+351 911 111 111", "item1.X-ABLabel:Mobile",
      "TEL;TYPE=home,voice;PREF=2:+351 222 222 222", "item2.EMAIL;TYPE=work:ana@lima.example",
      "item2.X-ABLabel:Office", "ORG:Lima & Filhos;Sales;Europe", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

  static func contact(_ text: String) throws -> Contact {
    try #require(try VCard.read(Data(text.utf8)).items.first?.item)
  }

  @Test func oneNumberChangedLeavesTheOthersAsWritten() throws {
    let old = try Self.contact(Self.card)
    var new = old
    new.phones[1].value = "+351 333 333 333"
    let patched = SyncedBodies.patched(Self.card, from: old, to: new, now: Self.now)
    // The untouched number keeps its group, its order of types and its label line.
    #expect(patched.contains("item1.TEL;TYPE=pref,cell:+351 911 111 111\r\nitem1.X-ABLabel:Mobile\r\n"))
    #expect(patched.contains("TEL;TYPE=home:+351 333 333 333\r\n"))
    #expect(!patched.contains("222 222 222"))
    #expect(try Self.contact(patched).phones.map(\.value) == ["+351 911 111 111", "+351 333 333 333"])
  }

  @Test func aNumberRemovedOrAddedTouchesNoOtherLine() throws {
    let old = try Self.contact(Self.card)
    var removed = old
    removed.phones.removeFirst()
    let patched = SyncedBodies.patched(Self.card, from: old, to: removed, now: Self.now)
    #expect(!patched.contains("911 111 111"))
    #expect(patched.contains("TEL;TYPE=home,voice;PREF=2:+351 222 222 222\r\n"))

    var added = old
    added.phones.append(LabeledValue("+351 444 444 444", label: "work"))
    let grown = SyncedBodies.patched(Self.card, from: old, to: added, now: Self.now)
    #expect(
      grown.contains(
        "item1.TEL;TYPE=pref,cell:+351 911 111 111\r\nitem1.X-ABLabel:Mobile\r\n"
          + "TEL;TYPE=home,voice;PREF=2:+351 222 222 222\r\nTEL;TYPE=work:+351 444 444 444\r\n"))
  }

  @Test func aChangedAddressKeepsItsGroupAndItsLabel() throws {
    let old = try Self.contact(Self.card)
    var new = old
    new.emails[0].value = "ana@filhos.example"
    let patched = SyncedBodies.patched(Self.card, from: old, to: new, now: Self.now)
    #expect(patched.contains("item2.EMAIL;TYPE=work:ana@filhos.example\r\nitem2.X-ABLabel:Office\r\n"))
  }

  @Test func aNameOrOrganisationKeepsThePartsHearthDoesNotModel() throws {
    let old = try Self.contact(Self.card)
    var new = old
    new.familyName = "Silva"
    new.organization = "Silva Lda"
    let patched = SyncedBodies.patched(Self.card, from: old, to: new, now: Self.now)
    #expect(patched.contains("N:Silva;Ana;Maria;Dr.;PhD\r\n"))
    #expect(patched.contains("ORG:Silva Lda;Sales;Europe\r\n"))
    let read = try Self.contact(patched)
    #expect(read.familyName == "Silva")
    #expect(read.organization == "Silva Lda")
  }

  @Test func anEscapedSemicolonIsNoPartBoundary() {
    #expect(PropertyPlan.rawParts(#"Smith\; Jones;Ann;;"#) == [#"Smith\; Jones"#, "Ann", "", ""])
  }
}
