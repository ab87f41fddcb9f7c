import Foundation
import HearthActions
import HearthCore
import HearthStore

/// What waits for the user because the model read text Hearth did not write before proposing it: a creation
/// or a web search, held as a pending record and run only when confirmed.
extension ActionService {
  /// Why a held record waits.
  static let heldReason =
    "proposed after reading text Hearth did not write (notes, documents, a tool's result, an earlier answer)"
  /// Why a creation an automation proposed waits.
  static let unattendedReason = "proposed by an automation, with no one there to ask"

  /// The pending record for a block that would otherwise run on the answer's word alone, or `nil` for one
  /// that waits or only reads anyway.
  func held(_ block: ActionBlock, session: UUID?, message: UUID?) -> ActionRecord? {
    guard let action = try? block.validated() else { return nil }
    var record = ActionRecord(
      sessionID: session, messageID: message, kind: block.kind.rawValue, block: block.raw, state: .pending,
      summary: "", reason: Self.heldReason)
    record.action = action.action
    switch action.spec.effect {
    case .creates:
      guard let (item, summary) = try? planner.create(action.typed) else { return nil }
      record.summary = summary
      record.itemKind = item.kind
      record.after = item.json
      return record
    case .asks:
      guard case .searchWeb(let query) = action.typed else { return nil }
      record.summary = "Search the web for “\(query)”"
      return record
    case .changes, .deletes:
      return nil
    }
  }

  /// Runs a held creation or web search the user confirmed; `nil` for any other pending record.
  func confirmHeld(_ record: ActionRecord) async throws -> ActionRecord? {
    if record.kind == ActionKind.toolCall.rawValue { return try await confirmTool(record) }
    guard record.itemID == nil, let block = ActionBlockParser.parse(record.block).blocks.first,
      let action = try? block.validated()
    else { return nil }
    var record = record
    record.reason = nil
    switch action.spec.effect {
    case .creates:
      let item: StoredItem
      do {
        (item, record.summary) = try planner.create(action.typed)
      } catch {
        // What was valid when proposed may no longer be (a list renamed, a habit removed): said, not thrown.
        return try settle(record, as: .failed, reason: "\(error)")
      }
      record.itemKind = item.kind
      record.itemID = item.id
      record.after = item.json
      return try settle(record, as: .created, writing: .insert(item))
    case .asks where block.kind == .webSearch:
      do {
        (record.summary, record.result) = try await planner.answer(action.typed)
      } catch {
        return try settle(record, as: .failed, reason: "\(error)")
      }
      return try settle(record, as: .answered)
    default:
      return nil
    }
  }
}
