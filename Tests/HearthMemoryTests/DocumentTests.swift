import Foundation
import HearthTestSupport
import Testing

@testable import HearthMemory

@Suite("Reading documents", .heavy)
struct DocumentTests {
  @Test("HTML keeps headings, paragraphs and list items and drops scripts, styles and comments")
  func html() {
    let page = """
      <html><head><title>x</title><style>p{color:red}</style></head><body>
      <h1>Trip &amp; plans</h1><p>We fly on <b>Monday</b>.<br>Gate&nbsp;B12.</p>
      <script>alert("no")</script><!-- hidden -->
      <ul><li>passport</li><li>charger &#8364;5 &#x263A;</li></ul></body></html>
      """
    let text = HTMLText.plain(page)
    #expect(text.contains("# Trip & plans"))
    #expect(text.contains("We fly on Monday."))
    #expect(text.contains("Gate B12."))
    #expect(text.contains("- passport"))
    #expect(text.contains("€5 ☺"))
    #expect(!text.contains("alert") && !text.contains("color") && !text.contains("hidden"))
  }

  @Test("binary, non-UTF-8, empty, unsupported and oversized files are refused with the reason")
  func badFiles() async throws {
    let folder = try TestModels.temporaryDirectory()
    func write(_ name: String, _ data: Data) throws -> URL {
      let url = folder.appendingPathComponent(name)
      try data.write(to: url)
      return url
    }
    await #expect(throws: DocumentError.notText(path: try write("bin.txt", Data([0x41, 0, 0x42])).path)) {
      try await DocumentText.read(folder.appendingPathComponent("bin.txt"))
    }
    let latin1 = try write("latin1.md", Data([0x63, 0x61, 0x66, 0xE9]))
    await #expect(throws: DocumentError.notText(path: latin1.path)) { try await DocumentText.read(latin1) }
    let blank = try write("blank.txt", Data(" \n\n ".utf8))
    await #expect(throws: DocumentError.empty(path: blank.path)) { try await DocumentText.read(blank) }
    let image = try write("photo.png", Data([0x89, 0x50]))
    await #expect(throws: DocumentError.unsupportedKind(path: image.path, ext: "png")) {
      try await DocumentText.read(image)
    }
    let huge = folder.appendingPathComponent("huge.txt")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: UInt64(DocumentText.byteLimit + 1))
    try handle.close()
    await #expect(
      throws: DocumentError.tooLarge(path: huge.path, bytes: DocumentText.byteLimit + 1, limit: DocumentText.byteLimit)
    ) {
      try await DocumentText.read(huge)
    }
    let fake = try write("fake.pdf", Data("not a pdf".utf8))
    await #expect(throws: DocumentError.notText(path: fake.path)) { try await DocumentText.read(fake) }
    let missing = folder.appendingPathComponent("missing.md")
    await #expect(throws: DocumentError.self) { try await DocumentText.read(missing) }
  }

  @Test("a PDF's text comes through pdftotext; a PDF without text is reported", .enabled(if: hasPDFTool))
  func pdf() async throws {
    let folder = try TestModels.temporaryDirectory()
    let withText = folder.appendingPathComponent("letter.pdf")
    try Self.pdf(text: "Policy number VH-2231 renews in May.").write(to: withText)
    #expect(try await DocumentText.read(withText).contains("Policy number VH-2231 renews in May."))
    let blank = folder.appendingPathComponent("scan.pdf")
    try Self.pdf(text: nil).write(to: blank)
    await #expect(throws: DocumentError.noTextInPDF(path: blank.path)) { try await DocumentText.read(blank) }
  }

  @Test(
    "a small PDF whose thousands of pages share one stream is refused by its page count, quickly",
    .enabled(if: hasPDFTool))
  func pdfAmplification() async throws {
    let folder = try TestModels.temporaryDirectory()
    let book = folder.appendingPathComponent("book.pdf")
    let data = Self.pdf(text: String(repeating: "All work and no play. ", count: 20), pages: 3000)
    try data.write(to: book)
    #expect(data.count < 500_000)
    let clock = ContinuousClock()
    let start = clock.now
    await #expect(throws: DocumentError.pdfTooLarge(path: book.path, limit: "it has more than 1000 pages")) {
      try await DocumentText.read(book)
    }
    // pdftotext stops at page 1,001 instead of writing all 3,000.
    #expect(clock.now - start < .seconds(30))
    let short = folder.appendingPathComponent("short.pdf")
    try Self.pdf(text: "Chapter one.", pages: 3).write(to: short)
    let text = try await DocumentText.read(short)
    #expect(text.components(separatedBy: "Chapter one.").count == 4)
  }

  static var hasPDFTool: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") }

  /// A PDF of `pages` pages that all show one content stream with `text` in Helvetica (or are empty), with a
  /// correct cross-reference table.
  static func pdf(text: String?, pages: Int = 1) -> Data {
    let stream = text.map { "BT /F1 12 Tf 72 720 Td (\($0)) Tj ET" } ?? ""
    let kids = (0..<pages).map { "\($0 + 5) 0 R" }.joined(separator: " ")
    let page =
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>"
    let objects =
      [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [\(kids)] /Count \(pages) >>",
        "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      ] + Array(repeating: page, count: pages)
    var body = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (index, object) in objects.enumerated() {
      offsets.append(body.utf8.count)
      body += "\(index + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = body.utf8.count
    body += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets { body += String(format: "%010d 00000 n \n", offset) }
    body += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return Data(body.utf8)
  }
}
