public import Foundation
import HearthCore

/// The chat histories other assistants export, read into conversation trees: ChatGPT's `conversations.json`
/// (a `mapping` of messages by id, each with its parent and children, and the `current_node` shown) and
/// Claude's (`chat_messages` in order, each naming its parent when the conversation branched).
public enum AssistantExport {
  /// What a file held: its conversations, and what of it could not be kept, by what it was.
  public struct Parsed: Sendable {
    public var conversations: [ConversationTree]
    /// "image": 3, "tool output": 2 …: parts no chat in Hearth can hold, counted.
    public var skipped: [String: Int]
  }

  /// Reads ChatGPT's `conversations.json`.
  /// - Throws: ``InterchangeError/wrongFormat(expected:found:)`` for anything but an array of conversations.
  public static func chatGPT(_ data: Data) throws -> Parsed {
    var skipped: [String: Int] = [:]
    let conversations = try array(data, expected: "a ChatGPT export (conversations.json)").compactMap {
      conversation -> ConversationTree? in
      guard let mapping = conversation["mapping"]?.objectMembers else {
        skipped["conversation without messages", default: 0] += 1
        return nil
      }
      var nodes: [ConversationTree.Node] = []
      for (key, entry) in mapping {
        let message = entry["message"]
        let role = message?["author"]?["role"]?.stringValue
        let (text, dropped) = chatGPTText(message?["content"])
        for part in dropped { skipped[part, default: 0] += 1 }
        let hidden = message?["metadata"]?["is_visually_hidden_from_conversation"] == .bool(true)
        let kept: ChatMessage.Role? = role == "user" ? .user : role == "assistant" ? .assistant : nil
        if role == "tool" { skipped["tool output", default: 0] += 1 }
        nodes.append(
          ConversationTree.Node(
            id: entry["id"]?.stringValue ?? key, parent: entry["parent"]?.stringValue, role: kept ?? .system,
            text: text, created: message?["create_time"]?.numberValue.map(Date.init(timeIntervalSince1970:)),
            shown: kept != nil && !hidden && !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty))
      }
      // The mapping's order is not the conversation's: children follow their parents by time, then by id.
      nodes.sort { ($0.created ?? .distantPast, $0.id) < ($1.created ?? .distantPast, $1.id) }
      return ConversationTree(
        id: conversation["conversation_id"]?.stringValue ?? conversation["id"]?.stringValue ?? UUID().uuidString,
        title: conversation["title"]?.stringValue ?? "", created: seconds(conversation["create_time"]),
        updated: seconds(conversation["update_time"]), nodes: nodes,
        current: conversation["current_node"]?.stringValue)
    }
    return Parsed(conversations: conversations, skipped: skipped)
  }

  /// Reads Claude's `conversations.json`.
  /// - Throws: ``InterchangeError/wrongFormat(expected:found:)`` for anything but an array of conversations.
  public static func claude(_ data: Data) throws -> Parsed {
    var skipped: [String: Int] = [:]
    let conversations = try array(data, expected: "a Claude export (conversations.json)").compactMap {
      conversation -> ConversationTree? in
      guard let messages = conversation["chat_messages"]?.arrayValue else {
        skipped["conversation without messages", default: 0] += 1
        return nil
      }
      var nodes: [ConversationTree.Node] = []
      var previous: String?
      for (index, message) in messages.enumerated() {
        let id = message["uuid"]?.stringValue ?? "message-\(index)"
        let blocks = message["content"]?.arrayValue ?? []
        var texts = blocks.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }
        for block in blocks where block["type"]?.stringValue != "text" {
          skipped[
            block["type"]?.stringValue.map { $0.replacingOccurrences(of: "_", with: " ") } ?? "part", default: 0] += 1
        }
        if texts.isEmpty, let text = message["text"]?.stringValue { texts = [text] }
        let files = (message["attachments"]?.arrayValue ?? []) + (message["files"]?.arrayValue ?? [])
        if !files.isEmpty { skipped["attachment", default: 0] += files.count }
        let sender = message["sender"]?.stringValue
        let role: ChatMessage.Role? = sender == "human" ? .user : sender == "assistant" ? .assistant : nil
        let text = texts.joined(separator: "\n\n")
        // Exports from before branching was recorded are one line of messages.
        let parent = message["parent_message_uuid"]?.stringValue ?? previous
        nodes.append(
          ConversationTree.Node(
            id: id, parent: parent, role: role ?? .system, text: text, created: date(message["created_at"]),
            shown: role != nil && !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty))
        previous = id
      }
      return ConversationTree(
        id: conversation["uuid"]?.stringValue ?? UUID().uuidString, title: conversation["name"]?.stringValue ?? "",
        created: date(conversation["created_at"]), updated: date(conversation["updated_at"]), nodes: nodes,
        // Claude shows the branch of the message written last.
        current: nodes.max { ($0.created ?? .distantPast) < ($1.created ?? .distantPast) }?.id)
    }
    return Parsed(conversations: conversations, skipped: skipped)
  }

  /// A message's text and the kinds of part it had that are not text.
  private static func chatGPTText(_ content: JSONValue?) -> (String, [String]) {
    guard let content else { return ("", []) }
    switch content["content_type"]?.stringValue {
    case "text", "multimodal_text":
      var texts: [String] = []
      var dropped: [String] = []
      for part in content["parts"]?.arrayValue ?? [] {
        if let text = part.stringValue {
          texts.append(text)
        } else {
          let kind = part["content_type"]?.stringValue ?? "part"
          dropped.append(kind.contains("image") ? "image" : kind.contains("audio") ? "audio" : "file")
        }
      }
      return (texts.joined(separator: "\n"), dropped)
    case "code":
      return (content["text"]?.stringValue.map { "```\n\($0)\n```" } ?? "", [])
    case let other?:
      return ("", [other.replacingOccurrences(of: "_", with: " ")])
    case nil:
      return ("", [])
    }
  }

  private static func array(_ data: Data, expected: String) throws -> [JSONValue] {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: data), let items = value.arrayValue else {
      let start = String(decoding: data.prefix(20), as: UTF8.self)
      throw InterchangeError.wrongFormat(expected: expected, found: start)
    }
    return items
  }

  private static func seconds(_ value: JSONValue?) -> Date? {
    value?.numberValue.map(Date.init(timeIntervalSince1970:))
  }

  private static func date(_ value: JSONValue?) -> Date? {
    guard let text = value?.stringValue else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
