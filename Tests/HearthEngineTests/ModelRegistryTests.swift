import Foundation
import HearthEngine
import HearthTestSupport
import Testing

@Suite("The model registry", .heavy)
struct ModelRegistryTests {
  let home: URL
  let paths: HearthPaths
  let registry: ModelRegistry

  init() throws {
    home = try TestModels.temporaryDirectory()
    paths = HearthPaths(home: home)
    registry = ModelRegistry(folder: paths.models)
    try FileManager.default.createDirectory(at: paths.models, withIntermediateDirectories: true)
  }

  func install(_ source: String, as name: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: paths.models.appendingPathComponent(name).path, withDestinationPath: source)
  }

  @Test func bundledModelsAreListedWhenInstalledAndVerifiedOnChoosing() throws {
    #expect(try registry.installed().isEmpty)
    #expect(try registry.list().map(\.id) == ["smollm2-135m-instruct", "gemma-3-270m", "all-minilm-l6-v2"])
    try install(TestModels.smolLM2, as: ModelResolver.defaultModelFileName)
    try install(TestModels.miniLM, as: EngineConfiguration.defaultEmbeddingModelFileName)
    let installed = try registry.installed()
    #expect(installed.map(\.id) == ["smollm2-135m-instruct", "all-minilm-l6-v2"])
    #expect(installed.map(\.entry.role) == [.chat, .embedding])
    #expect(installed.first?.status == .ready(verified: false))

    let chosen = try registry.use("SmolLM2-135M-Instruct.Q4_1")
    #expect(chosen.status == .ready(verified: true))
    // The verification is remembered while the file is unchanged.
    #expect(try registry.installed().first?.status == .ready(verified: true))
    #expect(try registry.active(.chat)?.id == "smollm2-135m-instruct")
    #expect(
      throws: ModelRegistryError.wrongRole(id: "all-minilm-l6-v2", role: .embedding, wanted: .chat)
    ) { try registry.usable("all-minilm-l6-v2", role: .chat) }
    #expect(throws: ModelRegistryError.self) { try registry.use("no-such-model") }
  }

  @Test func aDamagedOrWrongFileCannotBeChosen() throws {
    // The default model's name, but other bytes: the size bound catches it before any hashing.
    let path = try GGUFBuilder.valid().write()
    try install(path, as: ModelResolver.defaultModelFileName)
    guard case .invalid(let problem) = try registry.installed().first?.status else {
      Issue.record("a wrong file was not reported")
      return
    }
    #expect(problem.contains("expected 98362432 bytes"))
    #expect(throws: ModelRegistryError.self) { try registry.use("smollm2-135m-instruct") }

    // An unregistered file with a broken header is listed, but unusable.
    try Data("GGUF but not really".utf8).write(to: paths.models.appendingPathComponent("broken.gguf"))
    let broken = try #require(try registry.installed().first { $0.id == "broken" })
    #expect(!broken.status.isUsable)
    #expect(throws: ModelRegistryError.self) { try registry.use("broken") }
  }

  @Test func theChosenModelIsWhatCommandsRunAndRemovingItFallsBack() throws {
    try install(TestModels.smolLM2, as: ModelResolver.defaultModelFileName)
    let other = try GGUFBuilder.valid().write(named: "other.gguf")
    try install(other, as: "other.gguf")
    let resolver = ModelResolver(paths: paths, environment: [:])
    #expect(try resolver.resolve(explicit: nil).hasSuffix(ModelResolver.defaultModelFileName))
    try registry.use("other")
    #expect(try resolver.resolve(explicit: nil) == paths.models.appendingPathComponent("other.gguf").path)
    // A bare name is a registry name; a path stays a path.
    #expect(try resolver.resolve(explicit: "smollm2-135m-instruct").hasSuffix(ModelResolver.defaultModelFileName))
    #expect(try resolver.resolve(explicit: "/x/y.gguf") == "/x/y.gguf")
    #expect(throws: ModelRegistryError.self) { try resolver.resolve(explicit: "nonexistent") }
    try registry.remove("other")
    #expect(!FileManager.default.fileExists(atPath: paths.models.appendingPathComponent("other.gguf").path))
    #expect(try registry.active(.chat) == nil)
    #expect(try resolver.resolve(explicit: nil).hasSuffix(ModelResolver.defaultModelFileName))
  }

  @Test func theRegistryFileRefusesWhatItDoesNotKnow() throws {
    let file = paths.models.appendingPathComponent("registry.json")
    try #"{"version":1,"models":[{"id":"x","role":"chat","file":"x.gguf","colour":"red"}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    #expect {
      try registry.entries()
    } throws: { error in
      "\(error)".contains("models[0] is malformed: colour is not a field here")
    }
    try #"{"version":1,"models":[{"id":"x","role":"chat","file":"../x.gguf"}]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    #expect { try registry.entries() } throws: { "\($0)".contains("not a plain .gguf file name") }
    try #"{"version":2}"#.write(to: file, atomically: true, encoding: .utf8)
    #expect { try registry.entries() } throws: { "\($0)".contains("version 2 is not one this Hearth reads") }
  }

  @Test func fileNamesAreSanitised() {
    #expect(ModelFileName.sanitized("https://host/path/Qwen2.5-0.5B.Q4_K_M.gguf") == "Qwen2.5-0.5B.Q4_K_M.gguf")
    #expect(ModelFileName.sanitized("my model") == "my-model.gguf")
    #expect(ModelFileName.sanitized("../../etc/passwd") == "passwd.gguf")
    #expect(ModelFileName.sanitized("...") == nil)
    #expect(!ModelFileName.isSafe("../x.gguf"))
    #expect(!ModelFileName.isSafe(".hidden.gguf"))
    #expect(!ModelFileName.isSafe("dir/x.gguf"))
    #expect(ModelFileName.isSafe("x.gguf"))
  }
}
