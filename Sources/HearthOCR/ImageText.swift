import CTesseract
public import Foundation
public import HearthCore

/// Why an image's text could not be read.
public enum ImageTextError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bytes are no image Leptonica reads (PNG, JPEG, GIF, TIFF, BMP, WebP).
  case notAnImage(name: String)
  /// Tesseract or its English data is not installed.
  case engineMissing(String)
  case tooLarge(name: String, pixels: Int, limit: Int)

  public var description: String {
    switch self {
    case .notAnImage(let name): "\(name) is not an image Hearth can read (PNG, JPEG, GIF, TIFF, BMP or WebP)"
    case .engineMissing(let detail):
      "reading text in images needs Tesseract with its English data (Debian: apt-get install tesseract-ocr-eng): \(detail)"
    case .tooLarge(let name, let pixels, let limit):
      "\(name) has \(pixels) pixels; images of up to \(limit) are read"
    }
  }
}

/// The text in an image, read by Tesseract (its C API, English).
public struct ImageText: Sendable, Hashable {
  public var text: String
  /// Tesseract's mean confidence in the words, 0–100.
  public var confidence: Int

  /// The largest image read: 40 megapixels.
  public static let pixelLimit = 40_000_000

  /// Reads the text of `data` (an image file's bytes) on a thread of its own.
  public static func read(_ data: Data, name: String) async throws -> ImageText {
    try await Task.detached(priority: .utility) { try readBlocking(data, name: name) }.value
  }

  /// Reads the text of `data` on the calling thread.
  public static func readBlocking(_ data: Data, name: String) throws -> ImageText {
    // Leptonica reports failures on standard error; the error thrown says the same in words.
    setMsgSeverity(l_int32(L_SEVERITY_NONE))
    var image: UnsafeMutablePointer<PIX>? = data.withUnsafeBytes { bytes in
      guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
      return pixReadMem(base, bytes.count)
    }
    guard let pix = image else { throw ImageTextError.notAnImage(name: name) }
    defer { pixDestroy(&image) }
    let pixels = Int(pixGetWidth(pix)) * Int(pixGetHeight(pix))
    guard pixels <= pixelLimit else { throw ImageTextError.tooLarge(name: name, pixels: pixels, limit: pixelLimit) }
    guard let api = TessBaseAPICreate() else { throw ImageTextError.engineMissing("Tesseract did not start") }
    defer { TessBaseAPIDelete(api) }
    let folder = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"]
    guard TessBaseAPIInit3(api, folder, "eng") == 0 else {
      throw ImageTextError.engineMissing("its English data (eng.traineddata) was not found")
    }
    TessBaseAPISetImage2(api, pix)
    guard let raw = TessBaseAPIGetUTF8Text(api) else { return ImageText(text: "", confidence: 0) }
    defer { TessDeleteText(raw) }
    let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return ImageText(text: text, confidence: Int(TessBaseAPIMeanTextConf(api)))
  }
}

extension ImageTextError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .engineMissing: ErrorCategory(.unavailable, code: "ocr_missing")
    case .notAnImage, .tooLarge: ErrorCategory(.invalid, code: "invalid_file")
    }
  }
}
