import Foundation
import HTTPTypes
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore
import Testing

@testable import HearthServer

/// Each layer's errors state their own sort of failure; the server answers each with the status and code clients
/// already branch on.
@Suite("Errors answered by the sort of failure they state")
struct ErrorMappingTests {
  @Test("errors of every layer keep their status, code and field")
  func everyLayerKeepsItsAnswer() {
    let cases: [(any Error, Int, String?, String?)] = [
      (ChatError.alreadyGenerating(sessionID: UUID()), 409, "session_busy", nil),
      (ChatError.emptyMessage, 400, nil, "text"),
      (ChatError.modelNotReady, 503, "model_not_loaded", nil),
      (StoreError.sessionNotFound("x"), 404, "not_found", nil),
      (StoreError.corrupt(path: "/p", detail: "d"), 500, "database_error", nil),
      (DocumentError.tooLarge(path: "a.md", bytes: 9, limit: 1), 413, "body_too_large", nil),
      (AttachmentError.unsupported(name: "a.exe"), 400, "invalid_file", nil),
      (ModelDownloadError.tooManyPulls(limit: 2), 429, "too_many_downloads", nil),
      (PersonalDataError.invalid(field: "start", "is after the end"), 400, nil, "start"),
      (InvalidParameterError(name: "temperature", value: "9", expected: "0…2"), 400, nil, nil),
    ]
    for (error, status, code, parameter) in cases {
      let answer = ErrorMapping.apiError(error)
      #expect(Int(answer.status.code) == status, "\(error)")
      #expect(answer.code == code, "\(error)")
      #expect(answer.parameter == parameter, "\(error)")
      #expect(answer.message == "\(error)")
    }
  }

  @Test("an error that states no sort is an internal failure, its text kept for the log")
  func anUnknownErrorIsInternal() {
    struct Unforeseen: Error {}
    #expect(ErrorMapping.apiError(Unforeseen()).status.code == 500)
  }
}
