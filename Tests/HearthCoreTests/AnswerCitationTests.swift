import Testing

@testable import HearthCore

@Suite("An answer from the memory agrees with the passage it cites")
struct AnswerCitationTests {
  static let thursday = LocalDate(year: 2026, month: 11, day: 26)!

  static func check(passages: [Int: String]) -> AnswerCheck {
    var grounds = AnswerCheck.Grounds(
      request: "When was the boiler last serviced?", records: [passages.values.sorted().joined(separator: "\n")],
      itemNames: [], actionRan: false, requestIsAboutData: false, today: thursday)
    grounds.passages = passages
    return AnswerCheck(grounds)
  }

  static let passages = [
    1: "The boiler was serviced on 14 March 2021 by Heatwise; the next service is due in 2023.",
    2: "The flat was bought in 2019 for 240000 euros.",
  ]

  @Test("a fact the cited passage holds stands, in any of its written forms")
  func aFactOfTheCitedPassageStands() {
    let check = Self.check(passages: Self.passages)
    #expect(check.findings(in: "The boiler was serviced on 2021-03-14 [1].").isEmpty)
    #expect(check.findings(in: "It was bought in 2019 [2], and serviced in March 2021 [1].").isEmpty)
    #expect(check.findings(in: "The flat cost 240000 euros [1, 2].").isEmpty)
  }

  @Test("a fact that only another passage holds is caught: the citation says where it came from")
  func aFactOfAnotherPassageIsCaught() {
    let check = Self.check(passages: Self.passages)
    // 2019 is in the turn's records (passage 2), so a check against everything read lets it pass; passage 1,
    // which the sentence cites, says 2021.
    let findings = check.findings(in: "The boiler was last serviced in 2019 [1].")
    #expect(findings.map(\.kind) == [.citation], "\(findings)")
    #expect(findings.first?.value == "2019")
  }

  @Test("a citation of a passage the turn never read is caught")
  func aCitationOfNothingIsCaught() {
    let findings = Self.check(passages: Self.passages).findings(in: "The next service is due in 2023 [3].")
    #expect(findings.map(\.written) == ["[3]"], "\(findings)")
  }

  @Test("cited numbers are read in each form answers write them, and bracketed words are no citation")
  func citedNumbers() {
    let check = Self.check(passages: Self.passages)
    #expect(check.findings(in: "See [the manual] for the rest.").isEmpty)
    #expect(AnswerCheck.citedNumbers(in: "The flat [2019] was sold [2].") == [2])
    #expect(check.findings(in: "Serviced in 2021 [1][2].").isEmpty)
  }
}
