import Foundation
import HearthCore
import HearthEngine
import Hummingbird

/// Files attached to a message: `POST /api/sessions/:id/attachments?name=FILE` (the file as the body) reads its
/// text (OCR for an image) and keeps it waiting for the next message; `GET /api/attachments/:id` gives the text
/// read, `GET /api/attachments/:id/content` an image's own bytes; `DELETE` lets go of one not yet sent.
struct AttachmentRoutes<Context: RequestContext>: RouteArea {
  let dependencies: ServerDependencies
  let configuration: ServerConfiguration

  var paths: [RouterPath] { ["/api"] }

  func addRoutes(to router: RouteCollection<Context>) {
    router.post("sessions/:id/attachments") { request, context in
      let session = try RouteInput.sessionID(context)
      guard let name = request.uri.queryParameters.get("name"), !name.isEmpty else {
        throw APIError.invalidRequest("name is required: the file's name, with its extension", parameter: "name")
      }
      let data = try await RequestReader.bytes(of: request, limit: configuration.maxImportBytes)
      let attachment = try await dependencies.engine.attach(data, name: name, to: session)
      return try AppJSON.make(AttachmentView(attachment), status: .created)
    }
    router.get("attachments/:attachment") { _, context in
      let id = try RouteInput.id(context, "attachment", of: "attachment")
      return try AppJSON.make(AttachmentView(try dependencies.engine.attachment(id), withText: true))
    }
    router.get("attachments/:attachment/content") { _, context in
      let image = try dependencies.engine.attachedImage(try RouteInput.id(context, "attachment", of: "attachment"))
      // The user's own image, shown by the page as a thumbnail; never read as anything but its type.
      return Response(
        status: .ok,
        headers: [
          .contentType: image.mediaType, .cacheControl: "private, max-age=86400",
          .contentDisposition: "inline",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.data)))
    }
    router.delete("attachments/:attachment") { _, context in
      try dependencies.engine.removeAttachment(try RouteInput.id(context, "attachment", of: "attachment"))
      return Response(status: .noContent)
    }
  }
}

/// An attachment as the web app shows it: what it is, how its text was read, the start of that text (and all
/// of it when asked).
struct AttachmentView: Encodable {
  var id: UUID
  var name: String
  var mediaType: String
  var byteCount: Int
  var reading: String
  var characters: Int
  var preview: String
  var text: String?
  /// Why an image was read by OCR when a vision model was set up.
  var fallback: String?

  init(_ attachment: StoredAttachment, withText: Bool = false) {
    id = attachment.id
    name = attachment.name
    mediaType = attachment.mediaType
    byteCount = attachment.byteCount
    reading = attachment.reading
    characters = attachment.text.count
    preview = String(attachment.text.prefix(200))
    text = withText ? attachment.text : nil
    fallback = attachment.fallback
  }
}
