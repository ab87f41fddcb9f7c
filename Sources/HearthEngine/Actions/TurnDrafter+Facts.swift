import Foundation
import HearthActions
import HearthCore
import Logging

extension TurnDrafter {
  /// The block for a fact the request asks Hearth to keep or forget, read from its words. A plain statement
  /// (`explicitOnly` false) counts only when it names no kind of item and no time outside its "until …": "my
  /// dentist is on Friday at 3" is the calendar's. "Forget …" counts only when a kept fact has those words, so
  /// "forget the team lunch" stays a change of the calendar.
  func factBlock(_ request: String, today: LocalDate, explicitOnly: Bool) -> String? {
    guard let statement = FactStatement.read(request, today: today, explicitOnly: explicitOnly) else { return nil }
    switch statement {
    case .forget(let about):
      do {
        _ = try actions.planner.fact(ItemReference(title: about))
        return statement.block
      } catch {
        return nil
      }
    case .remember:
      return Self.tellsNoPlan(request, today: today, dayFirst: dayFirst, explicit: explicitOnly)
        ? statement.block : nil
    }
  }

  /// Whether a statement about the user names no plan of theirs: no day to come, no time of day and (unless the
  /// user said "remember", which names what they want) no kind of item. "Remember my appointment at 3
  /// tomorrow" and "my dentist is on Friday at 3" are the calendar's; "I moved to Ghent last month" and "my
  /// birthday is on the 9th of May" are the user's life; what follows "until" is the fact's own last day.
  static func tellsNoPlan(_ request: String, today: LocalDate, dayFirst: Bool, explicit: Bool) -> Bool {
    let lowered = request.lowercased()
    let end = [" until ", " till ", " through "].compactMap { lowered.range(of: $0)?.lowerBound }.min()
    let before = end.map { String(lowered[..<$0]) } ?? lowered
    if before.contains("birthday is") || before.contains("anniversary is") { return true }
    let hints = RequestHints(before, today: today, dayFirst: dayFirst)
    return (explicit || hints.kind == nil) && hints.time.clocks.isEmpty
      && !hints.dates.contains(where: { $0 >= today })
  }

  /// The look-up of the facts a question about the user asks for, when a fact holds its words. A question that
  /// names a time or one of the user's kinds of items ("what do I have on Friday?") is the data's, whatever
  /// a fact says of Fridays; a contact's question ("when is my brother's birthday?") may be answered by a fact.
  func unansweredFactQuestion(_ request: String, today: LocalDate) -> String? {
    let hints = RequestHints(request, today: today, dayFirst: dayFirst)
    guard !hints.time.namesDay, hints.time.clocks.isEmpty, hints.kind == nil else { return nil }
    return FactQuestion.unansweredBlock(for: request)
  }

  func factQuestion(_ request: String, today: LocalDate) -> String? {
    let hints = RequestHints(request, today: today, dayFirst: dayFirst)
    // "Remind me what my shoe size is" asks; "remind me to call mum" is a reminder's.
    let asks = [
      "remind me what", "remind me who", "remind me where", "remind me which", "remind me how", "remind me when",
    ]
    .contains { request.lowercased().hasPrefix($0) }
    guard !hints.time.namesDay, hints.time.clocks.isEmpty,
      hints.kind == nil || hints.kind == .contactsSearch || asks
    else { return nil }
    let facts: [Fact]
    do {
      facts = try actions.planner.facts.holding()
    } catch {
      logger.warning("the facts could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
    return FactQuestion.block(for: request, facts: facts.map(\.text))
  }
}
