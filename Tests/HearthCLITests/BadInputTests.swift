import Foundation
import HearthTestSupport
import Testing

/// Every bad input ends with one line naming the cause and a non-zero exit, never a crash.
@Suite("Bad input through the CLI", .heavy)
struct BadInputTests {
  private let hearth = CommandRunner()

  private func expectFailure(
    _ arguments: [String], mentioning fragment: String, input: String? = nil,
    environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let runner = CommandRunner(environment: environment)
    let result = try await runner.run(arguments, input: input)
    #expect(result.exitedNormally, "the process crashed", sourceLocation: sourceLocation)
    #expect(result.status != 0, sourceLocation: sourceLocation)
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: true)
    #expect(lines.count == 1, "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(
      result.standardError.localizedCaseInsensitiveContains(fragment), "\(result.standardError)",
      sourceLocation: sourceLocation)
  }

  private func ask(model: String, _ extra: [String] = []) -> [String] {
    ["ask", "Hello", "--model", model] + extra
  }

  @Test func anAPIKeyFromAFileThatCannotBeUsedIsRefusedByName() async throws {
    let empty = try TestModels.temporaryDirectory().appendingPathComponent("key")
    try Data("\n".utf8).write(to: empty)
    let serve = ["serve", "--model", TestModels.smolLM2, "--port", "0"]
    try await expectFailure(serve + ["--api-key-file", "/no/such/key"], mentioning: "--api-key-file")
    try await expectFailure(serve + ["--api-key-file", empty.path], mentioning: "holds no key")
    try await expectFailure(serve + ["--api-key-file", empty.path, "--api-key", "k"], mentioning: "not both")
  }

  @Test func httpsFlagsThatCannotBeHonouredAreRefusedByName() async throws {
    let serve = ["serve", "--model", TestModels.smolLM2, "--port", "0"]
    let folder = try TestModels.temporaryDirectory()
    let garbage = folder.appendingPathComponent("cert.pem")
    try Data("not a certificate\n".utf8).write(to: garbage)
    try await expectFailure(serve + ["--tls-cert", garbage.path], mentioning: "--tls-cert needs --tls-key")
    try await expectFailure(serve + ["--tls-key", garbage.path], mentioning: "--tls-key needs --tls-cert")
    try await expectFailure(
      serve + ["--tls", "--tls-cert", garbage.path, "--tls-key", garbage.path], mentioning: "not both")
    try await expectFailure(
      serve + ["--tls-cert", garbage.path, "--tls-key", garbage.path],
      mentioning: "\(garbage.path) holds no certificate")
    try await expectFailure(
      serve + ["--tls-cert", "/no/such/cert.pem", "--tls-key", garbage.path],
      mentioning: "cannot read /no/such/cert.pem")
    // Said before any model is looked for or loaded.
    try await expectFailure(
      [
        "serve", "--model", "/no/such/model.gguf", "--port", "0", "--tls-cert", garbage.path, "--tls-key", garbage.path,
      ],
      mentioning: "\(garbage.path) holds no certificate")
  }

  @Test func missingModel() async throws {
    try await expectFailure(ask(model: "/no/such/model.gguf"), mentioning: "not found")
  }

  @Test func directoryAsModel() async throws {
    try await expectFailure(ask(model: try TestModels.temporaryDirectory().path), mentioning: "directory")
  }

  @Test func emptyModelFile() async throws {
    try await expectFailure(ask(model: try GGUFBuilder().write()), mentioning: "empty")
  }

  @Test func fileThatIsNotGGUF() async throws {
    var builder = GGUFBuilder()
    builder.raw(Array("PK\u{3}\u{4} this is a zip, not a model".utf8))
    try await expectFailure(ask(model: try builder.write()), mentioning: "not a GGUF")
  }

  @Test func truncatedModel() async throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: TestModels.smolLM2), options: .alwaysMapped)
    var builder = GGUFBuilder()
    builder.bytes = Array(data.prefix(5_000_000))
    try await expectFailure(ask(model: try builder.write()), mentioning: "truncated")
  }

  @Test func absurdHeader() async throws {
    var builder = GGUFBuilder()
    builder.header(tensors: UInt64.max, keyValues: UInt64.max)
    try await expectFailure(ask(model: try builder.write()), mentioning: "corrupt")
    try await expectFailure(["models", "info", try builder.write()], mentioning: "corrupt")
  }

  @Test func unsupportedArchitecture() async throws {
    let path = try GGUFBuilder.valid(architecture: "hearth-imaginary").write()
    try await expectFailure(ask(model: path), mentioning: "unsupported model architecture 'hearth-imaginary'")
  }

  @Test func contextSizes() async throws {
    try await expectFailure(ask(model: TestModels.smolLM2, ["--context", "0"]), mentioning: "context size")
    try await expectFailure(ask(model: TestModels.smolLM2, ["--context", "100000"]), mentioning: "trained context")
  }

  @Test func samplingValues() async throws {
    try await expectFailure(ask(model: TestModels.smolLM2, ["--temperature=-1"]), mentioning: "temperature")
    try await expectFailure(ask(model: TestModels.smolLM2, ["--top-p", "0"]), mentioning: "top-p")
    try await expectFailure(ask(model: TestModels.smolLM2, ["--top-k=-4"]), mentioning: "top-k")
    try await expectFailure(ask(model: TestModels.smolLM2, ["--max-tokens", "0"]), mentioning: "max new tokens")
    try await expectFailure(ask(model: TestModels.smolLM2, ["--threads", "0"]), mentioning: "threads")
  }

  @Test func promptLongerThanTheContext() async throws {
    let long = String(repeating: "All work and no play makes a dull assistant. ", count: 40)
    try await expectFailure(
      ["ask", long, "--model", TestModels.smolLM2, "--context", "128"], mentioning: "tokens but only")
  }

  @Test func modelWithoutChatTemplate() async throws {
    // Gemma 3 270M is a base model with no template of its own; under a name of the user's own the catalogue
    // does not know it, and the template it lacks is said.
    let folder = try TestModels.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let renamed = folder.appendingPathComponent("my-base-model.gguf")
    try FileManager.default.createSymbolicLink(atPath: renamed.path, withDestinationPath: TestModels.gemma3)
    try await expectFailure(ask(model: renamed.path), mentioning: "no chat template")
    // Under its own name it is the catalogue's, whose template it gets.
    let known = try await CommandRunner().run(ask(model: TestModels.gemma3))
    #expect(known.status == 0, "\(known.standardError)")
  }

  @Test func noModelInstalled() async throws {
    let home = try TestModels.temporaryDirectory().path
    try await expectFailure(
      ["ask", "Hello"], mentioning: "default model is not installed",
      environment: ["HEARTH_HOME": home, "HEARTH_MODEL": ""])
  }
}
