import Foundation
import HTTPTypes
import HearthDAV
import HearthEngine
import Hummingbird
import NIOCore

/// The DAV server's answers: multistatus bodies, statuses, and refusals that name the precondition that failed.
enum DAVReply {
  static let xmlType = "application/xml; charset=utf-8"

  static var options: Response {
    Response(
      status: .ok,
      headers: [
        HTTPField.Name("DAV")!: "1, 3, calendar-access, addressbook, extended-mkcol",
        .allow: DAVRoutes<BasicRequestContext>.methods.map(\.rawValue).joined(separator: ", "),
        .contentLength: "0",
      ])
  }

  static func multistatus(_ body: String) -> Response {
    xml(body, status: HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status"))
  }

  static func xml(_ body: String, status: HTTPResponse.Status) -> Response {
    Response(
      status: status, headers: [.contentType: xmlType],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }

  static func status(_ status: HTTPResponse.Status) -> Response {
    Response(status: status, headers: [.contentLength: "0"])
  }

  /// A client's error, its reason in plain text.
  static func badRequest(_ reason: String) -> Response { plain(reason, status: .badRequest) }

  static func forbidden(_ reason: String) -> Response { plain(reason, status: .forbidden) }

  static func plain(_ text: String, status: HTTPResponse.Status) -> Response {
    Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
  }

  /// The answer to a refused write: the status RFC 4791/6352 give it, with the precondition as an error body.
  static func refusal(_ error: ServedWriteError, contacts: Bool) -> Response {
    let namespace = { (caldav: String, carddav: String) in contacts ? DAVName.carddav(carddav) : .caldav(caldav) }
    switch error {
    case .collectionNotFound, .memberNotFound: return plain(error.description, status: .notFound)
    case .preconditionFailed: return plain(error.description, status: .preconditionFailed)
    case .unreadable:
      return xml(DAVWriter.error(namespace("valid-calendar-data", "valid-address-data")), status: .forbidden)
    case .wrongKind:
      return xml(
        DAVWriter.error(namespace("supported-calendar-component", "supported-address-data")), status: .forbidden)
    case .uidConflict: return xml(DAVWriter.error(namespace("no-uid-conflict", "no-uid-conflict")), status: .conflict)
    case .nameTaken: return plain(error.description, status: .conflict)
    case .storeFailed: return plain(error.description, status: .internalServerError)
    }
  }

  /// `date` as HTTP writes it (`Mon, 07 Dec 2026 18:00:00 GMT`).
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
