import Foundation
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

/// No vision model and projector can be installed here: these tests reach what a test without one can — the
/// file checks before llama.cpp's `mtmd` loads anything, and `mtmd` refusing files that are no projector.
@Suite("Vision projectors (mtmd): files that are none are refused by name", .heavy)
struct VisionProjectorTests {
  private func reason(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch let error as LlamaError {
      guard case .projectorUnusable(_, let reason) = error else { return "\(error)" }
      return reason
    } catch {
      return "\(error)"
    }
  }

  @Test func aMissingFileAFileThatIsNoGGUFAndAModelThatIsNoProjectorAreRefused() throws {
    #expect(reason { _ = try VisionProjector.capabilities(ofFile: "/nowhere/mmproj.gguf") } == "no such file")
    let image = TestModels.packageRoot.appendingPathComponent("Tests/HearthOCRTests/Fixtures/sentence.png").path
    #expect(reason { _ = try VisionProjector.capabilities(ofFile: image) } == "it is not a GGUF file")
    // A GGUF file, but a language model's: mtmd reads its header and finds no image encoder.
    let refused = reason { _ = try VisionProjector.capabilities(ofFile: TestModels.miniLM) }
    #expect(refused != nil)
    #expect(refused != "no such file" && refused != "it is not a GGUF file")
  }

  @Test func loadingAModelAsItsOwnProjectorIsRefusedBeforeAnythingIsLoaded() async throws {
    let model = try await LlamaModel.load(path: TestModels.smolLM2)
    let refused = reason { _ = try VisionProjector(path: TestModels.smolLM2, model: model, threads: 1) }
    #expect(refused != nil)
    let error = LlamaError.projectorUnusable(path: "/models/mmproj-x.gguf", reason: "it is not a GGUF file")
    #expect(error.description == "the vision projector mmproj-x.gguf cannot be used: it is not a GGUF file")
  }
}
