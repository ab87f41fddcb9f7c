import Foundation

/// An answer drawn from the memory must agree with the passage it cites, not only with something the turn read.
extension AnswerCheck {
  /// What a sentence citing the passages `cited` states (its `claims`) that none of them holds: "the boiler was
  /// serviced in 2019 [1]" when passage 1 says 2021 and another passage says 2019. A number cited that is no
  /// passage of the turn is a citation of nothing.
  func disagreeing(_ claims: [AnswerClaim], citing cited: [Int]) -> [AnswerClaim] {
    guard !passageFacts.isEmpty else { return [] }
    let passages = cited.compactMap { passageFacts[$0] }
    guard passages.count == cited.count else {
      let missing = cited.filter { passageFacts[$0] == nil }.map { "[\($0)]" }.joined(separator: " ")
      return [AnswerClaim(.citation, missing, written: missing)]
    }
    return claims.filter { claim in
      !request.facts.contains(claim.value)
        && !passages.contains { $0.facts.contains(claim.value) || $0.folded.contains(claim.value) }
    }.map { AnswerClaim(.citation, $0.value, written: $0.written) }
  }

  /// The passage numbers a sentence cites: `[2]`, `[1][3]`, `[1, 3]`.
  static func citedNumbers(in sentence: String) -> [Int] {
    var numbers: [Int] = []
    var rest = sentence[...]
    while let open = rest.firstIndex(of: "[") {
      rest = rest[rest.index(after: open)...]
      guard let close = rest.firstIndex(of: "]") else { break }
      let inside = rest[..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      // A passage number has one or two digits: "[2026]" is a year in brackets, not a citation.
      if !inside.isEmpty, inside.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isNumber) }) {
        numbers += inside.compactMap { Int($0) }
      }
      rest = rest[rest.index(after: close)...]
    }
    return numbers
  }
}
