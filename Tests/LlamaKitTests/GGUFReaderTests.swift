import Foundation
import HearthTestSupport
import LlamaKit
import Testing

@Suite("GGUF header reader", .heavy)
struct GGUFReaderTests {
  @Test func readsAWellFormedFile() throws {
    let file = try GGUFReader.read(path: try GGUFBuilder.valid().write())
    #expect(file.version == 3)
    #expect(file.architecture == "llama")
    #expect(file.name == "tiny")
    #expect(file.contextLength == 128)
    #expect(file.tensors.count == 1)
    #expect(file.parameterCount == 8)
    #expect(file.tensors[0].byteCount == 32)
    #expect(file.dataOffset % 32 == 0)
  }

  @Test func readsTheRealTinyModel() throws {
    let file = try GGUFReader.read(path: TestModels.smolLM2)
    #expect(file.architecture == "llama")
    #expect(file.contextLength == 8192)
    #expect(file.chatTemplate?.contains("im_start") == true)
    #expect(file.vocabularySize == 49152)
    #expect(file.fileTypeName == "Q4_1")
    #expect(file.parameterCount > 100_000_000 && file.parameterCount < 200_000_000)
    #expect(file.tensorBytes <= file.fileSize)
  }

  @Test func readsTheSecondArchitecture() throws {
    let file = try GGUFReader.read(path: TestModels.gemma3)
    #expect(file.architecture == "gemma3")
    #expect(file.chatTemplate == nil)
  }

  @Test func rejectsAMissingFile() {
    expectError(.fileNotFound(path: "/nonexistent/model.gguf"), path: "/nonexistent/model.gguf")
  }

  @Test func rejectsADirectory() throws {
    let folder = try TestModels.temporaryDirectory().path
    expectError(.isDirectory(path: folder), path: folder)
  }

  @Test func rejectsAnEmptyFile() throws {
    let path = try GGUFBuilder().write()
    expectError(.emptyFile(path: path), path: path)
  }

  @Test func rejectsAFileThatIsNotGGUF() throws {
    var builder = GGUFBuilder()
    builder.raw(Array("{\"not\": \"a model\"}\n".utf8))
    let path = try builder.write(named: "notes.json")
    expectError(.notGGUF(path: path), path: path)
  }

  @Test func rejectsATinyFile() throws {
    var builder = GGUFBuilder()
    builder.raw([0x47, 0x47])
    let path = try builder.write()
    expectError(.notGGUF(path: path), path: path)
  }

  @Test func rejectsUnknownVersions() throws {
    for version: UInt32 in [1, 4, 0xFFFF_FFFF] {
      var builder = GGUFBuilder()
      builder.header(version: version, tensors: 0, keyValues: 0)
      let path = try builder.write()
      expectError(.unsupportedVersion(path: path, version: version), path: path)
    }
  }

  @Test(arguments: [4, 10, 20, 60, 100])
  func rejectsHeadersCutShort(keeping bytes: Int) throws {
    var builder = GGUFBuilder.valid()
    builder.bytes = Array(builder.bytes.prefix(bytes))
    let path = try builder.write()
    #expect(throws: GGUFError.self) { try GGUFReader.read(path: path) }
  }

  @Test func rejectsTensorDataCutShort() throws {
    var builder = GGUFBuilder.valid()
    builder.bytes.removeLast(4)
    let path = try builder.write()
    let error = #expect(throws: GGUFError.self) { try GGUFReader.read(path: path) }
    guard case .truncated(_, let detail) = error else {
      Issue.record("expected .truncated, got \(String(describing: error))")
      return
    }
    #expect(detail.contains("weights"))
  }

  @Test func rejectsARealModelCutInHalf() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: TestModels.smolLM2), options: .alwaysMapped)
    var builder = GGUFBuilder()
    builder.bytes = Array(data.prefix(data.count / 2))
    let path = try builder.write()
    let error = #expect(throws: GGUFError.self) { try GGUFReader.read(path: path) }
    guard case .truncated = error else {
      Issue.record("expected .truncated, got \(String(describing: error))")
      return
    }
  }

  @Test func rejectsAbsurdCounts() throws {
    var keys = GGUFBuilder()
    keys.header(tensors: 0, keyValues: UInt64.max)
    try expectMalformed(keys, mentioning: "metadata entries")

    var tensors = GGUFBuilder()
    tensors.header(tensors: 1 << 40, keyValues: 0)
    try expectMalformed(tensors, mentioning: "tensor descriptions")
  }

  @Test func rejectsAbsurdStringLengths() throws {
    var key = GGUFBuilder()
    key.header(tensors: 0, keyValues: 1)
    key.u64(UInt64.max)
    key.raw(Array(repeating: 0x61, count: 32))
    try expectMalformed(key, mentioning: "claims")

    var value = GGUFBuilder()
    value.header(tensors: 0, keyValues: 1)
    value.string("general.name")
    value.u32(8)
    value.u64(1 << 50)
    value.raw(Array(repeating: 0x61, count: 32))
    try expectMalformed(value, mentioning: "claims")
  }

  @Test func rejectsAbsurdArrays() throws {
    var builder = GGUFBuilder()
    builder.header(tensors: 0, keyValues: 1)
    builder.string("tokenizer.ggml.tokens")
    builder.u32(9)
    builder.u32(8)
    builder.u64(UInt64.max / 2)
    builder.raw(Array(repeating: 0, count: 64))
    try expectMalformed(builder, mentioning: "elements")
  }

  @Test func rejectsNestedArraysAndUnknownTypes() throws {
    var nested = GGUFBuilder()
    nested.header(tensors: 0, keyValues: 1)
    nested.string("x")
    nested.u32(9)
    nested.u32(9)
    nested.u64(1)
    nested.u32(4)
    nested.u64(1)
    nested.u32(7)
    try expectMalformed(nested, mentioning: "nests")

    var unknown = GGUFBuilder()
    unknown.header(tensors: 0, keyValues: 1)
    unknown.string("x")
    unknown.u32(99)
    unknown.u64(0)
    try expectMalformed(unknown, mentioning: "unknown value type")
  }

  @Test func rejectsDuplicateKeysAndBadBooleans() throws {
    var duplicate = GGUFBuilder()
    duplicate.header(tensors: 0, keyValues: 2)
    duplicate.keyString("general.name", "a")
    duplicate.keyString("general.name", "b")
    try expectMalformed(duplicate, mentioning: "duplicate")

    var boolean = GGUFBuilder()
    boolean.header(tensors: 0, keyValues: 1)
    boolean.string("flag")
    boolean.u32(7)
    boolean.raw([7])
    try expectMalformed(boolean, mentioning: "boolean")
  }

  @Test func rejectsImpossibleTensors() throws {
    func file(dimensions: [UInt64], type: UInt32 = 0, offset: UInt64 = 0) -> GGUFBuilder {
      var builder = GGUFBuilder()
      builder.header(tensors: 1, keyValues: 0)
      builder.tensor("t", dimensions: dimensions, type: type, offset: offset)
      builder.data(count: 64)
      return builder
    }
    try expectMalformed(file(dimensions: [1, 1, 1, 1, 1]), mentioning: "dimensions")
    try expectMalformed(file(dimensions: []), mentioning: "dimensions")
    try expectMalformed(file(dimensions: [1 << 40, 1 << 40]), mentioning: "impossible")
    try expectMalformed(file(dimensions: [8], type: 9999), mentioning: "unknown type")
    try expectMalformed(file(dimensions: [8], type: 4), mentioning: "retired type")
    try expectMalformed(file(dimensions: [8], offset: 3), mentioning: "aligned")
    try expectMalformed(file(dimensions: [33], type: 2), mentioning: "blocks")
    try expectMalformed(file(dimensions: [8], offset: UInt64.max - 31), mentioning: "beyond")
  }

  @Test func rejectsABadAlignment() throws {
    var builder = GGUFBuilder()
    builder.header(tensors: 0, keyValues: 1)
    builder.keyU32("general.alignment", 24)
    try expectMalformed(builder, mentioning: "power of two")
  }

  @Test func summarisesLongArraysWithoutKeepingThem() throws {
    let file = try GGUFReader.read(path: TestModels.smolLM2)
    guard case .array(let tokens) = file["tokenizer.ggml.tokens"] else {
      Issue.record("no token array")
      return
    }
    #expect(tokens.elements == nil)
    #expect(tokens.elementType == "string")
    #expect(GGUFValue.array(tokens).summary == "[string × 49152]")
  }

  @Test func errorsReadAsOneLine() throws {
    let path = try GGUFBuilder().write()
    do {
      _ = try GGUFReader.read(path: path)
      Issue.record("an empty file was accepted")
    } catch {
      #expect(error.description == "model file is empty: \(path)")
      #expect(!error.description.contains("\n"))
    }
  }

  private func expectError(_ expected: GGUFError, path: String) {
    #expect(throws: expected) { try GGUFReader.read(path: path) }
  }

  private func expectMalformed(
    _ builder: GGUFBuilder, mentioning fragment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let path = try builder.write()
    let error = #expect(throws: GGUFError.self, sourceLocation: sourceLocation) { try GGUFReader.read(path: path) }
    guard case .malformed(_, let detail) = error else {
      Issue.record("expected .malformed, got \(String(describing: error))", sourceLocation: sourceLocation)
      return
    }
    #expect(detail.contains(fragment), "\(detail)", sourceLocation: sourceLocation)
  }
}

extension GGUFReaderTests {
  @Test func aChangedFileIsReadAgain() throws {
    let path = try GGUFBuilder.valid(architecture: "llama").write(named: "changing.gguf")
    #expect(try GGUFReader.read(path: path).architecture == "llama")
    #expect(try GGUFReader.read(path: path).architecture == "llama")
    // Rewritten in place with as many bytes: a new header, however soon after.
    try Data(GGUFBuilder.valid(architecture: "qwen2").bytes).write(to: URL(fileURLWithPath: path))
    #expect(try GGUFReader.read(path: path).architecture == "qwen2")
  }
}
