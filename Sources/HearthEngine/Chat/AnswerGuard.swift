import Foundation
import HearthActions
import HearthCore
import HearthStore
import Logging

/// The check every finished answer passes before it is shown and stored (``AnswerCheck``): what it states about
/// the user's data must be in the records read for its turn — the prompt's data sections, the look-ups its blocks
/// answered, the changes they made, the memory's passages. An answer that fails is replaced by what the data
/// holds for the question (the day, the week, the list, the contact), looked up again by code, or by an honest
/// "I couldn't find …"; an answer left with a broken block is answered again plainly. Each replacement is counted
/// in telemetry by what it caught, never with content.
struct AnswerGuard: Sendable {
  let actions: ActionService
  let known: KnownItems
  let digest: DataDigest
  /// What the user wrote about themselves and the facts they told Hearth, which the prompt gives the model too.
  let aboutUser: @Sendable () throws -> String
  let clock: @Sendable () -> Date
  let timeZone: TimeZone
  let dayFirst: Bool
  let record: @Sendable (TelemetryRecord) -> Void
  let logger: Logger

  /// `nil` when the answer may stand; else what stands in for it.
  func check(_ turn: AnswerToCheck, model: any ChatModel) async -> CheckedAnswer? {
    let today = LocalDate(clock(), in: timeZone)
    let shown = ActionBlockFilter.shown(turn.answer)
    // Hearth's own question between two changes states nothing about the data.
    if ClarifyingQuestion.intents(asked: shown) != nil { return nil }
    // The user's contacts and habits, read once for the view the request asks for and the names it may use.
    let names = known.questionNames()
    let question = DataQuestion(
      RequestShorthand.expanded(turn.request), today: today, names: names, dayFirst: dayFirst)
    // A block the parser could not read, or the remains of one, is never the answer. What the look-ups found is
    // data and is shown defused ("(CALENDAR_ACTION:…" in a contact's notes): only the rest is the model's.
    let written = turn.records.compactMap(\.result).map(ActionBlockParser.defused).reduce(shown) {
      $1.isEmpty ? $0 : $0.replacingOccurrences(of: $1, with: "")
    }
    if AnswerCheck.holdsBlockRemains(written) {
      record(TelemetryRecord(at: clock(), kind: .answerReplaced, detail: "malformed block"))
      if let view = await lookUp(turn, question: question, names: names) { return view }
      let plain = await plainAnswer(turn.request, model: model)
      return CheckedAnswer(text: plain ?? Self.notUnderstood)
    }
    let ranStates: Set<ActionRecord.State> = [.created, .pending, .updated, .deleted]
    var grounds = AnswerCheck.Grounds(
      request: turn.request, records: sources(turn, today: today), itemNames: itemNames(names),
      actionRan: turn.records.contains { ranStates.contains($0.state) },
      // A request that asks about the user's own things, or names a person they know (as the views name one:
      // capitalised or with a possessive, so "what will the weather be" names no Will), has every sentence of its
      // answer read as being about them; "What is a calendar year?" does not.
      requestIsAboutData: question != nil || DataQuestion.namedContact(in: turn.request, names: names) != nil,
      today: today)
    grounds.passages = turn.passages
    let check = AnswerCheck(grounds)
    let findings = check.findings(in: shown)
    guard !findings.isEmpty else { return nil }
    let kinds = Set(findings.map(\.kind.rawValue)).sorted().joined(separator: ",")
    record(TelemetryRecord(at: clock(), kind: .answerReplaced, detail: kinds))
    logger.info("an answer stated what the data does not hold", metadata: ["claims": "\(kinds)"])
    // The blocks that ran stay (their cards are the answer's); only the model's words about them go.
    let blocks = ActionBlockParser.parse(turn.answer).blocks.map(\.raw).joined(separator: "\n")
    func keepingBlocks(_ text: String) -> String { blocks.isEmpty ? text : blocks + "\n\n" + text }
    let answered = turn.records.filter { $0.state == .answered }.compactMap(\.result)
    if !answered.isEmpty {
      return CheckedAnswer(text: keepingBlocks(SecondPass.found(answered)))
    }
    let done = turn.records.filter { ranStates.contains($0.state) }.map(\.summary)
    if !done.isEmpty { return CheckedAnswer(text: keepingBlocks(done.joined(separator: "\n"))) }
    if let view = await lookUp(turn, question: question, names: names) { return view }
    if findings.contains(where: { $0.kind == .action }) {
      return CheckedAnswer(text: "I haven't changed anything. " + Self.notUnderstood)
    }
    return CheckedAnswer(
      text: "I couldn't find that in your calendar, reminders, notes, habits, contacts or what you told me.")
  }

  /// Said when a request could not be read: nothing was done, and nothing is guessed.
  static let notUnderstood = "I couldn't work out what you would like me to do; could you say it another way?"

  /// The view of the data the request asks about (`question`), looked up now, as the answer's block and what it
  /// found.
  private func lookUp(
    _ turn: AnswerToCheck, question: DataQuestion?, names: DataQuestion.Names
  ) async -> CheckedAnswer? {
    // A request the view reader does not take ("Write a short bio of Anna Martin") that names a contact shows them.
    guard
      let question = question
        ?? DataQuestion.namedContact(in: turn.request, names: names).map({ DataQuestion(view: .contact(query: $0)) })
    else {
      return nil
    }
    do {
      let found = try await actions.process(
        answer: question.block, session: turn.message?.sessionID, message: turn.message?.id, userText: turn.request)
      let facts = found.filter { $0.state == .answered }.compactMap(\.result)
      guard !facts.isEmpty else { return nil }
      return CheckedAnswer(
        text: question.block + "\n\n" + SecondPass.found(facts), records: found)
    } catch {
      logger.error("a look-up for a checked answer failed", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
  }

  /// The request answered again without blocks: for a question that was never about the user's data.
  private func plainAnswer(_ request: String, model: any ChatModel) async -> String? {
    let system = "You are Hearth, a helpful assistant. Answer the user's message briefly, in plain words."
    let text: String
    do {
      let options = GenerationOptions(maxNewTokens: 200, sampling: .greedy)
      text = try await model.wholeAnswer(to: [.system(system), .user(request)], options: options)
    } catch {
      // Part of an answer that failed is no answer: what was found stands.
      logger.warning("a plain answer could not be written", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
    let plain = ActionBlockFilter.shown(text).trimmingCharacters(in: .whitespacesAndNewlines)
    return plain.isEmpty || AnswerCheck.holdsBlockRemains(plain) ? nil : plain
  }

  /// What the turn read: the prompt's data sections, what its look-ups found, what its actions did, the memory.
  private func sources(_ turn: AnswerToCheck, today: LocalDate) -> [String] {
    var sources = [
      digest.upcomingEvents(today: today), digest.dueReminders(today: today), digest.todaysHabits(now: clock()),
    ]
    sources += turn.records.flatMap { [$0.summary, $0.result ?? ""] }
    if let memory = turn.memory { sources.append(memory) }
    do {
      sources.append(try aboutUser())
    } catch {
      logger.warning(
        "what the user wrote about themselves could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
    }
    // What was said before in the chat was checked when it was said (or is the user's own words).
    sources.append(turn.earlier)
    return sources.filter { !$0.isEmpty }
  }

  /// The names of the user's things, whose mention makes a sentence one about their data: events, reminders,
  /// notes, habits and contacts (each part of a contact's name too). `names` holds the contacts and habits.
  private func itemNames(_ names: DataQuestion.Names) -> [String] {
    let kinds: [ActionKind] = [.calendar, .reminder, .note]
    let parts = names.contacts.flatMap { $0.split(separator: " ").map(String.init) }
    return kinds.flatMap { known.items($0).map(\.name) } + names.habits + names.contacts
      + parts.filter { $0.count >= 3 }
  }
}
