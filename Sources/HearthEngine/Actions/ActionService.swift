public import Foundation
import HearthActions
public import HearthCore
import HearthStore

/// What the assistant's answers do to the user's data: action blocks are read from an answer, checked,
/// and then creations run (and can be undone), changes and deletions wait for confirmation, questions are
/// answered from the data. Every outcome is an ``ActionRecord`` in the audit log.
public struct ActionService: Sendable {
  let planner: ActionPlanner
  /// The user's MCP servers, whose tools answers may call.
  let tools: ToolRunner
  var database: HearthDatabase { planner.context.database }

  /// Reads and runs the blocks of an assistant's answer. Only an answer the assistant wrote in a turn the
  /// user started may be given here: text from the user, notes, files or the web never is.
  ///
  /// A block the answer copied from the user's message (`userText`), from what the model read for this
  /// answer (`read`: retrieved notes and documents, the earlier part of an answer it continued) or from the
  /// conversation before (`earlier`) is recorded as not run. After a read, nothing runs on the answer's word
  /// alone: creations and web searches wait for the user's confirmation as changes and deletions always do;
  /// with `afterToolResults` (the answer goes on from tools' results), a call of a tool that only reads and
  /// that the user lets run is the one exception. With `unattended` (a turn no one started: an automation's), nothing runs on the answer's word alone either.
  public func process(
    answer: String, session: UUID? = nil, message: UUID? = nil, userText: String? = nil, read: String? = nil,
    earlier: String? = nil, unattended: Bool = false, afterToolResults: Bool = false
  ) async throws -> [ActionRecord] {
    let (blocks, malformed) = ActionBlockParser.parse(answer)
    var records: [ActionRecord] = malformed.map { block in
      ActionRecord(
        sessionID: session, messageID: message, kind: String(block.raw.dropFirst().prefix { $0 != ":" }),
        block: block.raw, state: .invalid, summary: "Not run: the block is malformed", reason: block.reason)
    }
    let squeezed = { (text: String) in text.filter { !$0.isWhitespace } }
    let quoted = [
      ("your message", userText.map(squeezed) ?? ""),
      ("what was read for this answer", read.map { squeezed(ActionBlockParser.defused($0)) } ?? ""),
      ("earlier in this conversation", earlier.map { squeezed(ActionBlockParser.defused($0)) } ?? ""),
    ]
    func copied(_ block: ActionBlock) -> Bool {
      let forms = [squeezed(block.raw), squeezed(ActionBlockParser.defused(block.raw))]
      return quoted.contains { _, text in forms.contains { !text.isEmpty && text.contains($0) } }
    }
    for block in blocks {
      if block.kind == .toolCall, !copied(block) {
        // After tools' results, a further look-up the user lets run goes on; anything else waits.
        let lookUp = afterToolResults && !unattended && tools.runsUnasked(block)
        let waits = read != nil && !lookUp ? Self.heldReason : unattended ? Self.unattendedReason : nil
        var record = await runTool(block, session: session, message: message, waits: waits)
        if read == nil, unattended { record.source = "automation" }
        records.append(record)
        continue
      }
      let forms = [squeezed(block.raw), squeezed(ActionBlockParser.defused(block.raw))]
      if let (source, _) = quoted.first(where: { _, text in forms.contains { !text.isEmpty && text.contains($0) } }) {
        records.append(
          ActionRecord(
            sessionID: session, messageID: message, kind: block.kind.rawValue, block: block.raw, state: .invalid,
            summary: "Not run: the block was copied from \(source)",
            reason: "blocks run only when the assistant writes them"))
        continue
      }
      if read != nil || unattended, var held = held(block, session: session, message: message) {
        if read == nil {
          held.reason = Self.unattendedReason
          held.source = "automation"
        }
        records.append(held)
        continue
      }
      let (planned, creation) = await run(block, session: session, message: message)
      records.append(try commit(planned, creating: creation))
    }
    for record in records where record.state != .created { try database.commitAction(record) }
    return records.sorted {
      answer.range(of: $0.block)?.lowerBound ?? answer.endIndex < answer.range(of: $1.block)?.lowerBound
        ?? answer.endIndex
    }
  }

  /// Writes a creation and its audit record in one transaction; a creation the store refuses is recorded as
  /// failed instead, with why.
  func commit(_ record: ActionRecord, creating item: StoredItem?) throws -> ActionRecord {
    guard let item, record.state == .created else { return record }
    do {
      try database.commitAction(record, writing: .insert(item))
      return record
    } catch {
      var failed = record
      failed.state = .failed
      failed.summary = "Could not \(record.action ?? "run") \(item.kind.noun)"
      failed.reason = error.description
      failed.after = nil
      return failed
    }
  }

  /// Plans one block: its record and, for a creation, the item to write with it.
  func run(_ block: ActionBlock, session: UUID?, message: UUID?) async -> (ActionRecord, StoredItem?) {
    var record = ActionRecord(
      sessionID: session, messageID: message, kind: block.kind.rawValue, block: block.raw, state: .failed, summary: "")
    let action: ValidatedAction
    do {
      action = try block.validated()
    } catch {
      record.state = .invalid
      record.summary = "Not run: \(error)"
      record.reason = error.description
      return (record, nil)
    }
    record.action = action.action
    do {
      switch action.spec.effect {
      case .creates:
        var (item, summary) = try planner.create(action.typed)
        // A fact keeps where the user said it.
        if case .fact(var fact) = item {
          (fact.sessionID, fact.messageID) = (session, message)
          item = .fact(fact)
        }
        record.state = .created
        record.summary = summary
        record.itemKind = item.kind
        record.itemID = item.id
        record.after = item.json
        return (record, item)
      case .changes, .deletes:
        let before = try planner.target(of: action.typed)
        let after = action.spec.effect == .changes ? try planner.changed(before, by: action.typed) : nil
        record.state = .pending
        record.summary = ActionPlanner.preview(action.typed, before: before, after: after)
        record.itemKind = before.kind
        record.itemID = before.id
        record.before = before.json
        record.after = after?.json
      case .asks:
        let (summary, result) = try await planner.answer(action.typed)
        record.state = .answered
        record.summary = summary
        record.result = result
      }
    } catch {
      record.state = .failed
      record.summary = "Could not \(action.action ?? "run") \(ActionBlock.noun(action.kind))"
      record.reason = "\(error)"
    }
    return (record, nil)
  }

  /// Runs a pending change or deletion the user agreed to, in one transaction with its audit record (so a
  /// second confirmation, here or in another process, changes nothing). A target that is gone cancels it
  /// with the reason.
  public func confirm(_ id: UUID) async throws -> ActionRecord {
    var record = try pending(id)
    if let held = try await confirmHeld(record) { return held }
    guard let kind = record.itemKind, let itemID = record.itemID, let current = try database.item(kind, id: itemID)
    else {
      return try settle(record, as: .cancelled, reason: "the \(record.itemKind?.noun ?? "item") no longer exists")
    }
    let (blocks, _) = ActionBlockParser.parse(record.block)
    guard let block = blocks.first, let action = try? block.validated() else {
      return try settle(record, as: .cancelled, reason: "the block no longer reads")
    }
    record.before = current.json
    if action.spec.effect == .deletes {
      record.after = nil
      return try settle(record, as: .deleted, writing: .delete(kind, id: itemID))
    }
    let changed: StoredItem
    do {
      changed = try planner.prepared(try planner.changed(current, by: action.typed))
    } catch {
      return try settle(record, as: .cancelled, reason: "\(error)")
    }
    record.after = changed.json
    return try settle(record, as: .updated, writing: .update(changed))
  }

  /// Declines a pending change or deletion.
  public func cancel(_ id: UUID) throws -> ActionRecord {
    try settle(try pending(id), as: .cancelled, reason: "declined")
  }

  /// Takes back what an action did — removes what it created, restores what it changed or deleted — in one
  /// transaction with its audit record, so it is taken back once.
  public func undo(_ id: UUID) throws -> ActionRecord {
    guard let record = try database.action(id) else { throw StoreError.itemNotFound(kind: "action", id: id.uuidString) }
    guard record.canUndo, let kind = record.itemKind, let itemID = record.itemID else {
      throw ActionStateError(id: id, state: record.state, wanted: "undo")
    }
    switch record.state {
    case .created:
      return try settle(record, as: .undone, expecting: .created, writing: .remove(kind, id: itemID))
    case .updated, .deleted:
      guard let before = record.before.flatMap({ StoredItem(kind: kind, json: $0) }) else {
        throw ActionStateError(id: id, state: record.state, wanted: "undo")
      }
      return try settle(
        record, as: record.state == .deleted ? .restored : .undone, expecting: record.state, writing: .put(before))
    default:
      throw ActionStateError(id: id, state: record.state, wanted: "undo")
    }
  }

  /// "Delete it", "cancel that", "move it to Friday at 3": a change that names no item but the one this
  /// session's last action made or touched. The block names that item by id, so nothing else can match.
  public func followUp(_ request: String, session: UUID) throws -> String? {
    let words = Set(request.lowercased().split { !$0.isLetter }.map(String.init))
    guard !words.isDisjoint(with: ["it", "that", "this"]),
      let last = try database.actions(session: session, limit: 20).first(where: {
        $0.itemKind != nil && $0.itemID != nil
      }),
      let itemKind = last.itemKind, let itemID = last.itemID,
      let kind = [ItemKind.event: ActionKind.calendar, .reminder: .reminder, .note: .note][itemKind]
    else { return nil }
    let today = planner.today
    let hints = RequestHints(request, today: today)
    // "Remind me to put the bin out, that's important", "add the school play Friday, it finishes at 8": a new
    // thing, whatever words it shares with a change.
    let text = " " + request.lowercased() + " "
    guard !RequestHints.opensWithACreation(text),
      let action = RequestHints.action(text, kind: kind), action != "create"
    else {
      return nil
    }
    var payload: [(String, JSONValue)] = [("action", .string(action)), ("id", .string(itemID))]
    if action == "update", kind == .calendar {
      guard let start = hints.dateTimes.first else { return nil }
      payload.append(("newStart", .string(start.shortDescription)))
    } else if !["delete", "complete"].contains(action) {
      return nil
    }
    return "[\(kind.rawValue):\(JSONValue.object(payload).jsonText)]"
  }

  /// The audit log, newest first; only the records in `state` when given (`.pending`: what waits for the user).
  public func log(
    session: UUID? = nil, message: UUID? = nil, state: ActionRecord.State? = nil, limit: Int = 200
  ) throws -> [ActionRecord] {
    try database.actions(session: session, message: message, state: state, limit: limit)
  }

  /// The record with this id or unique id prefix.
  public func record(_ reference: String) throws -> ActionRecord {
    if let id = UUID(uuidString: reference), let record = try database.action(id) { return record }
    let matches = try database.actions(limit: 10_000).filter {
      $0.id.uuidString.lowercased().hasPrefix(reference.lowercased())
    }
    guard matches.count == 1 else {
      throw ActionReferenceError(reference: reference, count: matches.count)
    }
    return matches[0]
  }

  private func pending(_ id: UUID) throws -> ActionRecord {
    guard let record = try database.action(id) else { throw StoreError.itemNotFound(kind: "action", id: id.uuidString) }
    guard record.state == .pending else {
      throw ActionStateError(id: id, state: record.state, wanted: "confirm or cancel")
    }
    return record
  }

  /// Moves `record` (still in state `expecting`) to `state`, making `change` in the same transaction.
  func settle(
    _ record: ActionRecord, as state: ActionRecord.State, reason: String? = nil,
    expecting: ActionRecord.State = .pending, writing change: ItemWrite? = nil
  ) throws -> ActionRecord {
    var record = record
    record.state = state
    if let reason { record.reason = reason }
    record.updatedAt = planner.context.clock()
    guard try database.commitAction(record, writing: change, expecting: expecting) else {
      throw ActionStateError(id: record.id, state: try database.action(record.id)?.state ?? .failed, wanted: "\(state)")
    }
    return record
  }
}

/// An action asked to do what its state does not allow (confirm twice, undo a pending one).
public struct ActionStateError: Error, Sendable, Hashable, CustomStringConvertible {
  public var id: UUID
  public var state: ActionRecord.State
  public var wanted: String

  public var description: String { "action \(id.uuidString.prefix(8)) is \(state.rawValue); it cannot \(wanted)" }
}

/// An action reference that names none or several records.
public struct ActionReferenceError: Error, Sendable, Hashable, CustomStringConvertible {
  public var reference: String
  public var count: Int

  public var description: String {
    count == 0 ? "no action with id \(reference)" : "\(reference) matches \(count) actions; give more of the id"
  }
}
