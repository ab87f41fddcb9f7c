public import Foundation
import HearthActions
public import HearthCore
import HearthMemory
import Logging

extension Engine {
  /// The system prompt a turn gets: the user's own when given; else Hearth's identity and, when answers may
  /// act, the action instructions (both the same for every user and stable within a day: the reusable
  /// prefix), what the user wrote about themselves, then the volatile sections — the coming days by name, the
  /// next events, due reminders and today's habits — each within its budget of the model's tokens.
  public func systemPrompt(custom: String? = nil, now: Date? = nil) -> String {
    systemPromptParts(custom: custom, now: now).text
  }

  /// ``systemPrompt(custom:now:)`` and the start of it a local model may keep evaluated between runs
  /// (``HearthCore/GenerationOptions/reusablePrefix``): Hearth's own words only, never the user's.
  /// `now` defaults to the engine's clock.
  /// A `persona` speaks in Hearth's place: its own instructions (or its name) open the prompt, its backstory
  /// follows, and the rest is as for Hearth. The facts `question` is about are the last left out when the
  /// facts do not all fit.
  public func systemPromptParts(
    custom: String? = nil, persona: Persona? = nil, question: String? = nil, now: Date? = nil
  ) -> (text: String, reusablePrefix: String?) {
    if let custom { return (custom, nil) }
    let count: (String) -> Int = { text in self.model?.countTokens(text) ?? text.count }
    let builder = promptBuilder(
      now: now ?? configuration.clock(), persona: persona, question: question, count: count)
    return (builder.build(countTokens: count), builder.sharedPrefix(countTokens: count))
  }

  /// The facts' share of the system prompt, in the model's tokens: about a dozen short facts.
  static let factsBudget = 200

  private func promptBuilder(
    now: Date, persona: Persona?, question: String?, count: (String) -> Int
  ) -> SystemPromptBuilder {
    var builder = SystemPromptBuilder()
    if let persona {
      Self.addIdentity(of: persona, to: &builder, count: count)
    } else {
      builder.add(SystemPromptBuilder.identity())
    }
    let today = LocalDate(now, in: calendar.timeZone)
    if chatConfiguration.actions {
      builder.add(
        PromptSection(name: "actions", text: ActionInstructions.text(today: today), tokenBudget: 900, isShared: true))
    }
    let tools = chatConfiguration.actions ? actions.tools.callable() : []
    if !tools.isEmpty {
      builder.add(PromptSection(name: "tools", text: ActionInstructions.toolLines(tools), tokenBudget: 500))
    }
    do {
      let persona = try memory.persona()
      if !persona.isEmpty {
        builder.add(
          Self.leadingSection(
            "persona", opening: "About the user, in their words: ", of: persona, longer: "text",
            tokenBudget: MemoryService.personaBudget, count: count))
      }
    } catch {
      // What the user said about themselves is missing from this turn: the model is told so, and so is the log.
      logger.error("the persona could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      builder.add(
        PromptSection(
          name: "persona", text: "What the user wrote about themselves could not be read just now.", tokenBudget: 30))
    }
    do {
      if let told = try memory.factsSection(tokenBudget: Self.factsBudget, question: question, countTokens: count) {
        // Sized here, whole facts only: the builder's own trimming never cuts one.
        builder.add(PromptSection(name: "facts", text: told.text, tokenBudget: max(Self.factsBudget, told.tokens) + 40))
      }
    } catch {
      logger.error("the facts could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      builder.add(
        PromptSection(
          name: "facts", text: "What the user told you about themselves could not be read just now.", tokenBudget: 30))
    }
    guard chatConfiguration.actions else {
      builder.add(SystemPromptBuilder.date(now, timeZone: calendar.timeZone))
      return builder
    }
    builder.add(
      PromptSection(
        name: "days",
        text: ActionInstructions.calendarDays(today: today) + " Time zone \(calendar.timeZone.identifier).",
        tokenBudget: 120, isVolatile: true))
    let digest = digest
    builder.add(
      PromptSection(name: "calendar", text: digest.upcomingEvents(today: today), tokenBudget: 250, isVolatile: true))
    builder.add(
      PromptSection(name: "reminders", text: digest.dueReminders(today: today), tokenBudget: 150, isVolatile: true))
    builder.add(PromptSection(name: "habits", text: digest.todaysHabits(now: now), tokenBudget: 100, isVolatile: true))
    return builder
  }

  /// The persona's opening and its backstory: its instructions whole (they are short by rule), the backstory
  /// whole when it fits its budget, else its start, marked so, the rest coming with each question.
  private static func addIdentity(of persona: Persona, to builder: inout SystemPromptBuilder, count: (String) -> Int) {
    if let own = persona.systemPrompt {
      builder.add(PromptSection(name: "identity", text: own, tokenBudget: count(own)))
    } else {
      var identity = SystemPromptBuilder.identity(name: persona.name)
      // The name is the user's: no longer the same for everyone, and never cut, however long.
      identity.isShared = false
      identity.tokenBudget = max(identity.tokenBudget, count(identity.text))
      builder.add(identity)
    }
    guard !persona.backstory.isEmpty else { return }
    builder.add(
      leadingSection(
        "backstory", opening: "Your own story, as \(persona.name): ", of: ActionBlockParser.defused(persona.backstory),
        longer: "story", tokenBudget: MemoryService.backstoryBudget, count: count))
  }

  /// A long text's section: whole when it fits `tokenBudget`, else its start, marked as the start of a longer
  /// `longer` whose parts come with each question by retrieval. Sized here, so the builder's own trimming (whole
  /// lines) never drops it.
  private static func leadingSection(
    _ name: String, opening: String, of text: String, longer: String, tokenBudget: Int, count: (String) -> Int
  ) -> PromptSection {
    let part = PersonaPrompt.leading(text, tokenBudget: tokenBudget, countTokens: count)
    let rest =
      part.isWhole ? "" : " (This is the start of a longer \(longer); its parts that fit a question come with it.)"
    let whole = opening + part.text + rest
    return PromptSection(name: name, text: whole, tokenBudget: count(whole))
  }

  /// `options` with the action-block grammar when answers may act (and no other grammar is set), as the
  /// chat service applies it; for answers generated outside a chat session.
  public func actionConstrained(_ options: GenerationOptions) -> GenerationOptions {
    guard chatConfiguration.actions, options.grammar == nil else { return options }
    var options = options
    let tools = actions.tools.callable()
    options.grammar = tools.isEmpty ? ActionGrammar.grammar() : ActionGrammar.grammar(tools: tools)
    options.grammarTrigger = ActionGrammar.triggerPattern(
      kinds: tools.isEmpty ? ActionKind.builtIn : ActionKind.allCases)
    return options
  }

  /// Whether answers may act on the user's data.
  public var actsOnAnswers: Bool { chatConfiguration.actions }

  /// The user's data as the prompt and the answer check read it for one turn.
  var digest: DataDigest {
    DataDigest(calendar: calendar, reminders: reminders, habits: habits, logger: logger)
  }
}
