import Foundation
import HearthActions
public import HearthCore
public import HearthStore

/// What the user told Hearth about themselves (``Fact``): kept, listed with where each came from, changed and
/// forgotten as the user asks. A statement about the same thing as a fact kept takes its place, and the
/// earlier one stays as history.
public typealias FactService = ItemService<Fact>

extension Fact: ServiceItem {
  public func canonical() -> Fact {
    var fact = self
    fact.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return fact
  }
}

/// Why a fact was not kept.
public enum FactError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The same statement is kept already.
  case alreadyKept(String)
  /// Its last day is already behind.
  case endsInThePast(LocalDate)

  public var description: String {
    switch self {
    case .alreadyKept(let text): "“\(text)” is remembered already"
    case .endsInThePast(let day): "expires: \(day) is in the past"
    }
  }
}

extension ItemService where Item == Fact {
  /// The facts kept now (a replaced one only `includingHistory`), pinned first, newest first; those past their
  /// last day included.
  public func list(includingHistory: Bool = false) throws -> [Fact] {
    try context.database.facts(includingHistory: includingHistory, asOf: today)
  }

  /// The facts that hold today: what the model is told.
  public func holding() throws -> [Fact] { try context.database.facts(on: today) }

  /// Today, by the profile's clock and zone: what "holds" is measured against.
  public var today: LocalDate { LocalDate(context.clock(), in: context.timeZone) }

  /// A new fact as it would be kept, checked and stamped, with the fact it takes the place of (one about the
  /// same thing, ``HearthActions/FactSubject``), not yet written.
  /// - Throws: ``FactError/alreadyKept(_:)`` when the same statement holds already; `PersonalDataError` for
  ///   an empty or too long one.
  func planned(_ fact: Fact, subject: (String) -> String = FactSubject.key) throws -> (fact: Fact, replacing: Fact?) {
    var fact = fact.canonical()
    if let expires = fact.expires, expires < today { throw FactError.endsInThePast(expires) }
    let kept = try list()
    let folded = { (text: String) in text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ". !")) }
    if kept.contains(where: { folded($0.text) == folded(fact.text) && $0.expires == fact.expires }) {
      throw FactError.alreadyKept(fact.text)
    }
    let replacing = kept.first { subject($0.text) == subject(fact.text) }
    fact.replaces = replacing?.id
    // A fact that takes another's place keeps its pin: the user pinned what it is about.
    if let replacing, replacing.isPinned { fact.isPinned = true }
    return (try prepared(new: fact), replacing)
  }

  /// Keeps a fact typed by the user (the Memory page, `hearth memory remember`), in place of one about the
  /// same thing; returns it with the fact it replaced.
  public func remember(
    _ text: String, until: LocalDate? = nil, pinned: Bool = false
  ) throws -> (fact: Fact, replacing: Fact?) {
    let planned = try planned(Fact(text: text, expires: until, isPinned: pinned))
    try context.database.insert(planned.fact)
    return planned
  }

  /// Changes a fact's words, its last day (`.some(nil)` clears it) or its pin.
  public func edit(
    _ reference: String, text: String? = nil, until: LocalDate?? = nil, pinned: Bool? = nil
  ) throws -> Fact {
    var fact = try item(reference)
    if let text { fact.text = text }
    if let until {
      if let day = until, day < today { throw FactError.endsInThePast(day) }
      fact.expires = until
    }
    if let pinned { fact.isPinned = pinned }
    return try update(fact)
  }

  /// Forgets a fact and the earlier versions it replaced, returning it.
  @discardableResult
  public func forget(_ reference: String) throws -> Fact {
    let fact = try item(reference)
    try context.database.write(.delete(.fact, id: fact.id))
    return fact
  }
}

extension FactError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .alreadyKept: ErrorCategory(.conflict, code: "fact_kept_already")
    case .endsInThePast: ErrorCategory(.invalid, parameter: "expires")
    }
  }
}
