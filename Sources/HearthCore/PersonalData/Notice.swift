public import Foundation

/// Something Hearth tells the user without being asked: a reminder that is due, an event about to start, a
/// habit not yet checked in by the evening, an automation that ran. Kept until the user deals with it, so one that fired while no
/// screen was open is listed the next time one is.
public struct Notice: Sendable, Hashable, Codable, Identifiable {
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case reminder, event, habit
    /// An automation ran; `itemID` is the chat it answered in.
    case automation
    /// A sync found an item changed on both sides in the same field; `itemID` is the copy kept of Hearth's
    /// version.
    case sync
  }

  /// The same for the same item at the same moment, so a notice is made once however many processes look.
  public var id: String
  public var kind: Kind
  /// The reminder, event or habit it is about.
  public var itemID: String
  public var title: String
  /// One line: "Due at 15:00", "Starts at 10:00", "Not checked in today".
  public var detail: String
  /// When it is (or was) to be shown.
  public var fireAt: Date
  /// When a screen was first told of it; `nil` while it waits (a snoozed one, until its new time).
  public var deliveredAt: Date?
  /// When the user dealt with it (done, snoozed, dismissed); `nil` while it stands.
  public var settledAt: Date?

  public init(
    kind: Kind, itemID: String, title: String, detail: String, fireAt: Date, deliveredAt: Date? = nil,
    settledAt: Date? = nil
  ) {
    self.id = "\(kind.rawValue):\(itemID):\(Int(fireAt.timeIntervalSince1970))"
    self.kind = kind
    self.itemID = itemID
    self.title = title
    self.detail = detail
    self.fireAt = fireAt
    self.deliveredAt = deliveredAt
    self.settledAt = settledAt
  }
}
