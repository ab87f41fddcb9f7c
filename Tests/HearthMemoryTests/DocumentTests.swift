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
  func badFiles() throws {
    let folder = try TestModels.temporaryDirectory()
    func write(_ name: String, _ data: Data) throws -> URL {
      let url = folder.appendingPathComponent(name)
      try data.write(to: url)
      return url
    }
    #expect(throws: DocumentError.notText(path: try write("bin.txt", Data([0x41, 0, 0x42])).path)) {
      try DocumentText.read(folder.appendingPathComponent("bin.txt"))
    }
    let latin1 = try write("latin1.md", Data([0x63, 0x61, 0x66, 0xE9]))
    #expect(throws: DocumentError.notText(path: latin1.path)) { try DocumentText.read(latin1) }
    let blank = try write("blank.txt", Data(" \n\n ".utf8))
    #expect(throws: DocumentError.empty(path: blank.path)) { try DocumentText.read(blank) }
    let image = try write("photo.png", Data([0x89, 0x50]))
    #expect(throws: DocumentError.unsupportedKind(path: image.path, ext: "png")) { try DocumentText.read(image) }
    let huge = folder.appendingPathComponent("huge.txt")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: UInt64(DocumentText.byteLimit + 1))
    try handle.close()
    #expect(
      throws: DocumentError.tooLarge(path: huge.path, bytes: DocumentText.byteLimit + 1, limit: DocumentText.byteLimit)
    ) {
      try DocumentText.read(huge)
    }
    let fake = try write("fake.pdf", Data("not a pdf".utf8))
    #expect(throws: DocumentError.notText(path: fake.path)) { try DocumentText.read(fake) }
    let missing = folder.appendingPathComponent("missing.md")
    #expect(throws: DocumentError.self) { try DocumentText.read(missing) }
  }

  @Test("a PDF's text comes through pdftotext; a PDF without text is reported", .enabled(if: hasPDFTool))
  func pdf() throws {
    let folder = try TestModels.temporaryDirectory()
    let withText = folder.appendingPathComponent("letter.pdf")
    try Self.pdf(text: "Policy number VH-2231 renews in May.").write(to: withText)
    #expect(try DocumentText.read(withText).contains("Policy number VH-2231 renews in May."))
    let blank = folder.appendingPathComponent("scan.pdf")
    try Self.pdf(text: nil).write(to: blank)
    #expect(throws: DocumentError.noTextInPDF(path: blank.path)) { try DocumentText.read(blank) }
  }

  static var hasPDFTool: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") }

  /// A one-page PDF with `text` in Helvetica (or an empty page), with a correct cross-reference table.
  static func pdf(text: String?) -> Data {
    let stream = text.map { "BT /F1 12 Tf 72 720 Td (\($0)) Tj ET" } ?? ""
    let objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
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
