public import Foundation
public import HearthCore

/// Why a file could not be read into memory.
public enum DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case unsupportedKind(path: String, ext: String)
  case tooLarge(path: String, bytes: Int, limit: Int)
  case notText(path: String)
  case empty(path: String)
  case noTextInPDF(path: String)
  case pdfToolMissing(path: String)
  case pdfTooLarge(path: String, limit: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
    case .unsupportedKind(let path, let ext):
      "\(path): .\(ext) files are not indexed (supported: \(DocumentText.supportedExtensions.sorted().joined(separator: ", ")))"
    case .tooLarge(let path, let bytes, let limit):
      "\(path): \(bytes) bytes is over the limit of \(limit) bytes for one document"
    case .notText(let path): "\(path): not UTF-8 text (binary file?)"
    case .empty(let path): "\(path): holds no text"
    case .noTextInPDF(let path): "\(path): the PDF has no text layer (a scan?); nothing to index"
    case .pdfToolMissing(let path):
      "\(path): reading PDFs needs pdftotext (Debian: apt-get install poppler-utils)"
    case .pdfTooLarge(let path, let limit): "\(path): not indexed, \(limit)"
    }
  }
}

extension DocumentError {
  /// The same error about the file the user knows by `name` (not the temporary copy that was read).
  func naming(_ name: String) -> DocumentError {
    switch self {
    case .unreadable(_, let reason): .unreadable(path: name, reason: reason)
    case .unsupportedKind(_, let ext): .unsupportedKind(path: name, ext: ext)
    case .tooLarge(_, let bytes, let limit): .tooLarge(path: name, bytes: bytes, limit: limit)
    case .notText: .notText(path: name)
    case .empty: .empty(path: name)
    case .noTextInPDF: .noTextInPDF(path: name)
    case .pdfToolMissing: .pdfToolMissing(path: name)
    case .pdfTooLarge(_, let limit): .pdfTooLarge(path: name, limit: limit)
    }
  }
}

/// The text of a document file: `.txt` and `.md` as they are, `.html` without its markup, `.pdf` through
/// poppler's `pdftotext`.
public enum DocumentText {
  /// File extensions that are indexed.
  public static let supportedExtensions: Set<String> = ["txt", "md", "markdown", "html", "htm", "pdf"]
  /// The largest file read: 20 MiB.
  public static let byteLimit = 20 << 20

  /// Whether `url` names a file kind that is indexed.
  public static func isSupported(_ url: URL) -> Bool {
    supportedExtensions.contains(url.pathExtension.lowercased())
  }

  /// Reads the text of the file at `url`; a PDF's text is extracted within ``PDFText``'s bounds.
  /// - Throws: ``DocumentError`` naming the file and the reason.
  public static func read(_ url: URL) async throws(DocumentError) -> String {
    let path = url.path
    let ext = url.pathExtension.lowercased()
    guard supportedExtensions.contains(ext) else { throw .unsupportedKind(path: path, ext: ext) }
    let size: Int
    do {
      size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    } catch {
      throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
    }
    guard size <= byteLimit else { throw .tooLarge(path: path, bytes: size, limit: byteLimit) }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
    }
    let text: String
    switch ext {
    case "pdf": text = try await PDFText.extract(path: path, data: data)
    case "html", "htm": text = HTMLText.plain(try decode(data, path: path))
    default: text = try decode(data, path: path)
    }
    guard text.contains(where: { !$0.isWhitespace }) else {
      throw ext == "pdf" ? .noTextInPDF(path: path) : .empty(path: path)
    }
    return text
  }

  /// The text of a file's bytes, named `name` (its extension says the kind), within the same bounds as
  /// ``read(_:)``; a PDF goes to `pdftotext` through a temporary file.
  /// - Throws: ``DocumentError`` naming the file and the reason.
  public static func text(of data: Data, name: String) async throws(DocumentError) -> String {
    let ext = (name as NSString).pathExtension.lowercased()
    guard supportedExtensions.contains(ext) else { throw .unsupportedKind(path: name, ext: ext) }
    guard data.count <= byteLimit else { throw .tooLarge(path: name, bytes: data.count, limit: byteLimit) }
    let text: String
    switch ext {
    case "pdf":
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).pdf")
      do {
        try data.write(to: file)
      } catch {
        throw .unreadable(path: name, reason: (error as NSError).localizedDescription)
      }
      defer { try? FileManager.default.removeItem(at: file) }
      do {
        text = try await PDFText.extract(path: file.path, data: data)
      } catch {
        throw error.naming(name)
      }
    case "html", "htm": text = HTMLText.plain(try decode(data, path: name))
    default: text = try decode(data, path: name)
    }
    guard text.contains(where: { !$0.isWhitespace }) else {
      throw ext == "pdf" ? .noTextInPDF(path: name) : .empty(path: name)
    }
    return text
  }

  /// Text from bytes that must be UTF-8 without NUL bytes.
  public static func decode(_ data: Data, path: String) throws(DocumentError) -> String {
    guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { throw .notText(path: path) }
    return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
  }
}

/// Runs poppler's `pdftotext` on a PDF, bounded: a small file can hold thousands of pages that share one
/// content stream, and unbounded it writes hundreds of megabytes for minutes.
public enum PDFText {
  /// Most pages read; a longer PDF is refused.
  public static let pageLimit = 1000
  /// Most bytes of text kept (as much as the largest text file read).
  public static let textLimit = DocumentText.byteLimit
  /// Longest pdftotext may run.
  public static let timeLimit: Duration = .seconds(60)

  static func extract(path: String, data: Data) async throws(DocumentError) -> String {
    guard data.starts(with: Array("%PDF".utf8)) else { throw .notText(path: path) }
    guard
      let tool = ["/usr/bin/pdftotext", "/usr/local/bin/pdftotext", "/opt/homebrew/bin/pdftotext"]
        .first(where: FileManager.default.isExecutableFile(atPath:))
    else { throw .pdfToolMissing(path: path) }
    // One page past the limit, so that a longer PDF is known as such.
    let run = BoundedProcess(
      executable: URL(fileURLWithPath: tool), arguments: ["-enc", "UTF-8", "-q", "-l", "\(pageLimit + 1)", path, "-"],
      outputLimit: textLimit, timeLimit: timeLimit)
    let outcome: BoundedProcess.Outcome
    do {
      outcome = try await run.run()
    } catch {
      throw .unreadable(path: path, reason: "pdftotext did not start: \(error)")
    }
    if let stop = outcome.stopped {
      throw .pdfTooLarge(path: path, limit: "pdftotext was stopped: \(stop)")
    }
    guard outcome.status == 0 else {
      throw .unreadable(path: path, reason: "pdftotext failed with status \(outcome.status)")
    }
    // pdftotext ends every page with a form feed; a page break is a paragraph break.
    let pages = outcome.output.reduce(0) { $0 + ($1 == 0x0C ? 1 : 0) }
    guard pages <= pageLimit else {
      throw .pdfTooLarge(path: path, limit: "it has more than \(pageLimit) pages")
    }
    return String(decoding: outcome.output, as: UTF8.self).replacingOccurrences(of: "\u{0C}", with: "\n\n")
  }
}

extension DocumentError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .tooLarge: ErrorCategory(.tooLarge, code: "body_too_large")
    case .pdfToolMissing: ErrorCategory(.unavailable, code: "pdf_tool_missing")
    case .unreadable, .unsupportedKind, .notText, .empty, .noTextInPDF, .pdfTooLarge:
      ErrorCategory(.invalid, code: "invalid_file")
    }
  }
}
