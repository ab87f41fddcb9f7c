import Foundation
import HearthActions
import HearthCore
import HearthStore
import Logging

/// What code writes for a request before the model is asked: a follow-up on the last change ("move it to 3"),
/// a tool call, an action block read from the request's words and meaning, a question when the request reads as
/// two changes, or the view of the data a question asks for. `nil` leaves the answer to the model.
struct TurnDrafter: Sendable {
  let actions: ActionService
  let known: KnownItems
  let intents: IntentReader
  let database: HearthDatabase
  let clock: @Sendable () -> Date
  let timeZone: TimeZone
  let dayFirst: Bool
  let logger: Logger

  func draft(_ typed: String, model: any ChatModel, session: UUID) async -> String? {
    // A message that holds a block of its own is talk about blocks, never an order to run one.
    let written = ActionBlockParser.parse(typed)
    guard written.blocks.isEmpty, written.malformed.isEmpty else { return nil }
    // "tmrw", "wknd", "reminde me": the readers below meet the words they were written for.
    let request = RequestShorthand.expanded(typed)
    do {
      let today = LocalDate(clock(), in: timeZone)
      // "Remember that …", "forget that …": the user's own words about what Hearth keeps come first.
      if let block = factBlock(request, today: today, explicitOnly: true) { return block }
      // A drafted answer is its block alone: its card says what it does, in words.
      if let block = try actions.followUp(request, session: session) { return block }
      let tools = actions.tools.callable()
      if !tools.isEmpty,
        let call = try await ToolDrafter(tools: tools, model: model, localZone: timeZone.identifier).draft(request)
      {
        return call
      }
      let drafter = ActionDrafter(model: model, existing: known.items, dayFirst: dayFirst)
      // The reply to Hearth's own question ("a reminder, please") drafts the request it asked about.
      if let (asked, chosen) = answeredQuestion(typed, in: session) {
        return try await drafter.draft(
          RequestShorthand.expanded(asked), today: today, reading: .clear(chosen, score: 1))
      }
      // "17 times 23": code counts, the model cannot.
      if let sum = Calculation(typed) { return sum.answer }
      // "Ran 8km along the river": a habit said done, by a form of its name, is its check-in.
      if let checkIn = HabitCheckIn.block(request, habits: known.items(.habit).map(\.name)) { return checkIn }
      // "What is my brother's name?" when the user told it: the facts answer, not the model.
      if let block = factQuestion(request, today: today) { return block }
      // "My brother's name is Tomas": a statement about the user that asks for no change of their data.
      if let block = factBlock(request, today: today, explicitOnly: false) { return block }
      // A question asks to be told: it changes nothing, and when it names one of the user's things ("where's the
      // dentist appointment again", "remind me where I met Anna") it is answered with that thing's record.
      // A question about a document the user gave ("what does the pantry document say …") is the memory's.
      let asked = ItemQuestion.isQuestion(request) && !ActionDrafter.asksAboutAFile(request)
      // Read only when needed: it reads every note, contact and event, and most questions are answered first.
      var looked: String??
      func named() -> String? {
        if let looked { return looked }
        let found = asked ? ItemQuestion.lookUp(request, items: known.questionItems) : nil
        looked = .some(found)
        return found
      }
      // "Anything with Anna coming up?": the calendar, with her in it, not her contact card; the days the request
      // names, else the coming month. One asked of the past with no day named is left to the readers below.
      if let person = ItemQuestion.companion(in: request, contacts: known.questionNames().contacts) {
        let time = SpokenTime(words: SpokenTime.words(of: request), today: today, dayFirst: dayFirst)
        let past = ItemQuestion.words(request).contains { ["did", "was", "were", "had", "last"].contains($0) }
        if let (from, to) = time.namedDates ?? (past ? nil : (today, today.adding(days: 30))) {
          let fields: [(String, String)] = [
            ("action", "query"), ("from", "\(from)"), ("to", "\(to)"), ("text", person),
          ]
          return "[\(ActionKind.calendar.rawValue):"
            + JSONValue.object(fields.map { ($0.0, .string($0.1)) }).jsonText + "]"
        }
      }
      // A question that names one of the user's things is answered with that thing's record, before any reading
      // of what sort of request it is: "which area of Lisbon is my hotel in" is the Lisbon note's, whatever the
      // words' kind.
      if asked, let named = named() { return named }
      // "Remind me what I've got on the 1st" asks to be told now, as "tell me what …" does: read so, it is no
      // request for a reminder.
      let told = ItemQuestion.toldNow(request)
      // The request's meaning decides only where its words and the names of the user's items find nothing.
      if let drafted = try await drafter.draft(told, today: today, reading: await intents.read(told)) {
        if !asked || Self.isLookUp(drafted) { return drafted }
        if let named = named() { return named }
        // A change drafted from a question that names nothing of the user's is no answer to it: the views below
        // (or the model, checked) answer instead.
        if !Self.isChange(drafted) { return drafted }
      }
      if let named = named() { return named }
      // A question about the user's data that no reader took for an action gets the view that answers it
      // (the days it names, the list, the contact), never the model's own idea of the user's week.
      if let view = DataQuestion(told, today: today, names: known.questionNames(), dayFirst: dayFirst)?.block {
        return view
      }
      // A question about the user's own life that no fact answers is told so, never answered from nothing.
      return unansweredFactQuestion(request, today: today)
    } catch {
      // The model writes the answer itself, as it does when no draft fits.
      logger.warning("an action could not be drafted", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }

  /// Whether `drafted` is a look-up of the user's data (a calendar query or free time, the reminders, a note
  /// search, habit figures, a contact search).
  static func isLookUp(_ drafted: String) -> Bool {
    guard let block = ActionBlockParser.parse(drafted).blocks.first else { return false }
    if block.kind == .contactsSearch { return true }
    guard [.calendar, .reminder, .note, .habit].contains(block.kind) else { return false }
    return ["query", "free", "list", "search", "stats"].contains(block.payload["action"]?.stringValue ?? "")
  }

  /// Whether `drafted` would change the user's data (anything but a look-up, a web search or a question).
  static func isChange(_ drafted: String) -> Bool {
    guard let block = ActionBlockParser.parse(drafted).blocks.first else { return false }
    return block.kind != .webSearch && !isLookUp(drafted)
  }

  /// The request Hearth asked about and the intent `reply` chose, when the answer before `reply` is Hearth's
  /// question between two changes and the reply names one of them. In an imported chat the question may not
  /// be Hearth's at all, so a reply there is always a request of its own.
  private func answeredQuestion(_ reply: String, in session: UUID) -> (String, RequestIntent)? {
    let messages: [StoredMessage]
    do {
      guard try !database.isImported(session) else { return nil }
      // The request asked about, the question, the reply and the answer being written for it.
      messages = try database.lastMessages(in: session, count: 4).filter { $0.role != .system }
    } catch {
      logger.warning("the conversation could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
    // The conversation ends with the reply (and the answer being written for it).
    guard let replied = messages.lastIndex(where: { $0.role == .user }), replied >= 2,
      messages[replied].content == reply
    else { return nil }
    let question = messages[replied - 1]
    let asked = messages[replied - 2]
    guard question.role == .assistant, asked.role == .user,
      let (first, second) = ClarifyingQuestion.intents(asked: question.content),
      let chosen = ClarifyingQuestion.choice(reply, between: first, second)
    else { return nil }
    return (asked.content, chosen)
  }
}
