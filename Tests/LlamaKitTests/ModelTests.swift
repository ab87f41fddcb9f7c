import Foundation
import HearthCore
import HearthTestSupport
import LlamaKit
import Testing

@Suite("Loading models and their text", .heavy)
struct ModelTests {
  @Test func readsMetadata() async throws {
    let model = try await SharedModels.smolLM2()
    #expect(model.metadata.architecture == "llama")
    #expect(model.metadata.trainedContextLength == 8192)
    #expect(model.metadata.vocabularySize == 49152)
    #expect(model.metadata.chatTemplate != nil)
    #expect(model.metadata.eosToken == "<|im_end|>")
    #expect(model.metadata.parameterCount > 100_000_000)
  }

  @Test func tokenizesAndDetokenizes() async throws {
    let model = try await SharedModels.smolLM2()
    let text = "Hearth keeps notes, calendars — and café receipts 🦙."
    let tokens = try model.tokenize(text, addSpecial: false, parseSpecial: false)
    #expect(!tokens.isEmpty)
    #expect(model.detokenize(tokens) == text)
  }

  @Test func neverYieldsHalfACharacterFromRealTokenPieces() async throws {
    let model = try await SharedModels.smolLM2()
    let text = "🦙 日本語のテキスト 👩‍👩‍👧 Ωμέγα"
    let tokens = try model.tokenize(text, addSpecial: false, parseSpecial: false)
    let pieces = tokens.map { model.pieceBytes(of: $0) }
    // The test only means something if the tokenizer really splits characters across tokens.
    #expect(pieces.contains { String(validating: $0, as: UTF8.self) == nil })
    var assembler = UTF8Assembler()
    var chunks: [String] = []
    for piece in pieces {
      let chunk = assembler.append(piece)
      if !chunk.isEmpty { chunks.append(chunk) }
    }
    #expect(chunks.allSatisfy { !$0.contains("\u{FFFD}") })
    #expect(chunks.joined() + assembler.flush() == text)
  }

  @Test func formatsChatWithTheModelsOwnTemplate() async throws {
    let model = try await SharedModels.smolLM2()
    let prompt = try model.formatChat([.system("Be brief."), .user("Hi")])
    #expect(
      prompt == "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
  }

  @Test func refusesToGuessAMissingChatTemplate() async throws {
    let model = try await SharedModels.gemma3()
    #expect(model.metadata.chatTemplate == nil)
    let error = #expect(throws: LlamaError.self) { try model.formatChat([.user("Hi")]) }
    guard case .missingChatTemplate = error else {
      Issue.record("expected .missingChatTemplate, got \(String(describing: error))")
      return
    }
  }

  @Test func usesAConfiguredTemplateOverride() async throws {
    let model = try await LlamaModel.load(
      path: TestModels.gemma3, options: ModelLoadOptions(chatTemplateOverride: "gemma"))
    let prompt = try model.formatChat([.user("Hi")])
    #expect(prompt.contains("<start_of_turn>user\nHi<end_of_turn>"))
  }

  @Test func rejectsAnUnknownTemplateName() async throws {
    let model = try await LlamaModel.load(
      path: TestModels.smolLM2, options: ModelLoadOptions(chatTemplateOverride: "no-such-template"))
    #expect(throws: LlamaError.self) { try model.formatChat([.user("Hi")]) }
  }

  @Test func reportsBadFilesWithoutLoadingThem() async throws {
    let folder = try TestModels.temporaryDirectory()
    let empty = folder.appendingPathComponent("empty.gguf").path
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    let text = folder.appendingPathComponent("text.gguf").path
    _ = FileManager.default.createFile(atPath: text, contents: Data("hello".utf8))
    for path in ["/no/such/model.gguf", folder.path, empty, text] {
      let error = await #expect(throws: LlamaError.self) { _ = try await LlamaModel.load(path: path) }
      guard case .invalidModelFile = error else {
        Issue.record("expected .invalidModelFile for \(path), got \(String(describing: error))")
        continue
      }
    }
  }

  @Test func reportsAnUnsupportedArchitecture() async throws {
    let path = try GGUFBuilder.valid(architecture: "hearth-imaginary").write()
    let error = await #expect(throws: LlamaError.self) { _ = try await LlamaModel.load(path: path) }
    guard case .unsupportedArchitecture(let name, _) = error else {
      Issue.record("expected .unsupportedArchitecture, got \(String(describing: error))")
      return
    }
    #expect(name == "hearth-imaginary")
  }

  @Test func reportsAKnownArchitectureWithMissingWeights() async throws {
    let path = try GGUFBuilder.valid(architecture: "llama").write()
    let error = await #expect(throws: LlamaError.self) { _ = try await LlamaModel.load(path: path) }
    guard case .loadFailed = error else {
      Issue.record("expected .loadFailed, got \(String(describing: error))")
      return
    }
  }

  @Test(arguments: [0, -5, 8193, 1_000_000])
  func rejectsContextSizesTheModelCannotHold(_ size: Int) async throws {
    let model = try await SharedModels.smolLM2()
    let error = await #expect(throws: LlamaError.self) {
      _ = try await LlamaSession.create(model: model, options: ContextOptions(contextSize: size))
    }
    guard case .invalidContextSize(let requested, let maximum) = error else {
      Issue.record("expected .invalidContextSize, got \(String(describing: error))")
      return
    }
    #expect(requested == size && maximum == 8192)
  }
}
