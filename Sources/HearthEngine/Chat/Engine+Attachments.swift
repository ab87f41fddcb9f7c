public import Foundation
public import HearthCore
import HearthMemory
import HearthOCR
import HearthStore
import LlamaKit
import Logging

/// Why a file could not be attached.
public enum AttachmentError: Error, Sendable, Hashable, CustomStringConvertible {
  case tooLarge(name: String, bytes: Int, limit: Int)
  case unsupported(name: String)
  case noText(name: String)
  case notWaiting(UUID)

  public var description: String {
    switch self {
    case .tooLarge(let name, let bytes, let limit):
      "\(name) has \(bytes) bytes; files of up to \(limit >> 20) MiB can be attached"
    case .unsupported(let name):
      "\(name) cannot be attached: Hearth reads .txt, .md, .html and .pdf documents and PNG, JPEG, GIF, TIFF, BMP"
        + " and WebP images"
    case .noText(let name): "no text was found in \(name)"
    case .notWaiting(let id): "no attachment \(id.uuidString.prefix(8)) waits to be sent"
    }
  }
}

extension Engine {
  /// The largest file attached.
  public static let attachmentByteLimit = 20 << 20
  static let imageTypes: [String: String] = [
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "tif": "image/tiff",
    "tiff": "image/tiff", "bmp": "image/bmp", "webp": "image/webp",
  ]
  static let documentTypes: [String: String] = [
    "txt": "text/plain", "md": "text/markdown", "markdown": "text/markdown", "html": "text/html",
    "htm": "text/html", "pdf": "application/pdf",
  ]

  /// Reads a file's text — a document's own, an image's by OCR — and keeps it waiting to go with the next
  /// message of the chat (``TurnRequest/attachments``); a file named by a path is known by its last part.
  /// - Throws: ``AttachmentError``, `DocumentError` or `ImageTextError` naming the file and the reason;
  ///   `StoreError` for a chat that does not exist.
  public func attach(_ data: Data, name: String, to sessionID: UUID) async throws -> StoredAttachment {
    _ = try database.session(sessionID)
    let base = (name as NSString).lastPathComponent.trimmingCharacters(in: .whitespacesAndNewlines)
    let name = base.isEmpty ? "attachment" : String(base.prefix(200))
    guard data.count <= Self.attachmentByteLimit else {
      throw AttachmentError.tooLarge(name: name, bytes: data.count, limit: Self.attachmentByteLimit)
    }
    let ext = (name as NSString).pathExtension.lowercased()
    let text: String
    let reading: String
    let mediaType: String
    var fallback: String?
    if let type = Self.imageTypes[ext] {
      mediaType = type
      do {
        (text, reading) = (try await described(data), "vision")
      } catch let reason as VisionUnavailable {
        // No projector, or one that cannot be used: OCR reads what text the image holds.
        fallback = reason.reason
        (text, reading) = (try await ImageText.read(data, name: name).text, "ocr")
      }
    } else if let type = Self.documentTypes[ext] {
      text = try await DocumentText.text(of: data, name: name)
      (reading, mediaType) = (ext == "pdf" ? "pdf" : type == "text/html" ? "html" : "text", type)
    } else {
      throw AttachmentError.unsupported(name: name)
    }
    guard text.contains(where: { !$0.isWhitespace }) else { throw AttachmentError.noText(name: name) }
    var attachment = StoredAttachment(
      sessionID: sessionID, name: name, mediaType: mediaType, byteCount: data.count, reading: reading, text: text,
      createdAt: configuration.clock())
    try database.saveAttachment(attachment, content: Self.imageTypes[ext] == nil ? nil : data)
    attachment.fallback = fallback.flatMap { $0.isEmpty ? nil : $0 }
    return attachment
  }

  /// The question a vision model is asked about an image when it is attached, before the user has said what
  /// they want of it.
  static let visionQuestion = "Describe this image, and write out any text in it exactly."

  /// The question a vision model is asked about an image sent with `message`: the user's own words, with the
  /// image's text asked for too, so that the answer can quote it.
  static func visionQuestion(asking message: String) -> String {
    let asked = message.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !asked.isEmpty else { return visionQuestion }
    return "The user sent this image with the message: “\(asked)”\n"
      + "Look at the image for what the message asks, say what you see that answers it, and write out any text "
      + "in the image that bears on it exactly."
  }

  /// Asks the vision model about each image of `attachments` seen by it when attached, this time with the
  /// message they are sent with, and keeps that reading as the image's text for the turn. An image it cannot
  /// read again keeps the reading it had (said in the log).
  func readImagesAgain(_ attachments: [UUID], asking message: String) async {
    guard projector.current.path != nil, !message.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    for id in attachments where !Task.isCancelled {
      do {
        guard let attachment = try database.attachment(id), attachment.reading == "vision",
          attachment.mediaType.hasPrefix("image/"), let data = try database.attachmentContent(id)
        else { continue }
        let text = try await described(data, question: Self.visionQuestion(asking: message))
        guard text.contains(where: { !$0.isWhitespace }) else { continue }
        try database.updateAttachmentText(id, to: text)
      } catch {
        logger.warning(
          "an image could not be read again with the message", metadata: ["error": "\(ErrorKind.of(error))"])
      }
    }
  }

  /// What the chat model says about an image through its vision projector.
  /// - Throws: ``VisionUnavailable`` when there is no projector, no local model to read with, or the projector
  ///   cannot be used (its reason, for the user); the model's error when the description fails.
  private func described(_ image: Data, question: String = Engine.visionQuestion) async throws -> String {
    guard let path = projector.current.path else { throw VisionUnavailable(reason: "") }
    do {
      _ = try VisionProjector.capabilities(ofFile: path)
    } catch {
      logger.warning("the vision projector cannot be used", metadata: ["error": "\(error)"])
      throw VisionUnavailable(reason: "\(error); the image was read by OCR")
    }
    guard let host else { throw VisionUnavailable(reason: "no local model reads images; the image was read by OCR") }
    do {
      return try await withModel { _ in
        guard let local = host.loaded else { throw VisionUnavailable(reason: "the model is not loaded") }
        return try await local.describe(image, projector: path, question: question)
      }
    } catch let error as LlamaError {
      logger.warning("the vision projector cannot be used", metadata: ["error": "\(error)"])
      throw VisionUnavailable(reason: "\(error); the image was read by OCR")
    }
  }

  /// An attached image's bytes and media type, for its thumbnail and full-size view.
  /// - Throws: `StoreError.itemNotFound` for no attachment with this id, or one that is not an image kept.
  public func attachedImage(_ id: UUID) throws -> (mediaType: String, data: Data) {
    let attachment = try attachment(id)
    guard attachment.mediaType.hasPrefix("image/"), let data = try database.attachmentContent(id) else {
      throw StoreError.itemNotFound(kind: "attached image", id: id.uuidString)
    }
    return (attachment.mediaType, data)
  }

  /// An attachment and the text read from it.
  public func attachment(_ id: UUID) throws -> StoredAttachment {
    guard let attachment = try database.attachment(id) else {
      throw StoreError.itemNotFound(kind: "attachment", id: id.uuidString)
    }
    return attachment
  }

  /// Lets go of an attachment that has not been sent.
  public func removeAttachment(_ id: UUID) throws {
    guard try database.removeWaitingAttachment(id) else { throw AttachmentError.notWaiting(id) }
  }
}

/// Why an image was not read by a vision model.
struct VisionUnavailable: Error {
  var reason: String
}
