import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Whether the llama.cpp build under test has a GPU backend set-up proved on a device, and if not, why.
enum VulkanBuild {
  static var proven: Bool {
    TestModels.llamaProof?.gpuBackend == "vulkan" && TestModels.llamaProof?.gpuResult == "passed"
  }
  static var reason: Comment {
    guard let proof = TestModels.llamaProof else { return "no set-up proof beside \(TestModels.llamaPrefix)" }
    return Comment(
      rawValue: "this llama.cpp build has no proven GPU backend (backend \(proof.gpuBackend ?? "none"): "
        + "\(proof.gpuReason ?? "not recorded"); proof \(proof.gpuResult ?? "not run"))")
  }
}

@Suite(
  "The GPU: a Vulkan device takes the layers, answers, and the doctor says so", .heavy,
  .enabled(if: VulkanBuild.proven, VulkanBuild.reason))
struct GPUOffloadCommandTests {
  private func json(_ result: CommandRunner.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
  }

  @Test func layersGoToTheDeviceWhenAskedAndStayOnTheCPUWhenNot() async throws {
    let home = try TestModels.temporaryDirectory()
    // Mesa's lavapipe is a CPU-type Vulkan device, which ggml uses only when named.
    let onDevice = CommandRunner(environment: [
      "HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2, "GGML_VK_VISIBLE_DEVICES": "0",
    ])
    let before = try json(try await onDevice.run(["doctor", "--json"]))
    let native = try #require(before["native"] as? [String: Any])
    #expect((native["gpu_backends"] as? [String])?.contains("Vulkan") == true, "\(native)")
    let devices = try #require(native["gpu_devices"] as? [[String: Any]])
    #expect(devices.count >= 1 && (devices.first?["total_bytes"] as? Int ?? 0) > 0, "\(devices)")
    let chosen = try #require(before["model"] as? [String: Any])
    #expect(chosen["gpu_layers"] as? String == "auto")
    #expect((chosen["offload"] as? String)?.hasPrefix("would offload 31/31") == true, "\(chosen)")

    // Every layer on the device: llama.cpp's own report of the load is kept, and the answer is the model's. A short
    // system prompt keeps lavapipe's slow prompt reading to seconds.
    let gpuAnswer = try await onDevice.run([
      "ask", "What is the capital of France?", "--system", "You are a helpful assistant.", "--provider", "local",
      "--temperature", "0", "--max-tokens", "8", "--gpu-layers", "99",
    ])
    #expect(gpuAnswer.status == 0, "\(gpuAnswer)")
    #expect(gpuAnswer.standardOutput.contains("Paris"), "\(gpuAnswer.standardOutput)")
    // Told to keep the model on the CPU, with the device still there, it does.
    let cpuAnswer = try await onDevice.run([
      "ask", "What is the capital of France?", "--system", "You are a helpful assistant.", "--provider", "local",
      "--temperature", "0", "--max-tokens", "8", "--gpu-layers", "0",
    ])
    #expect(cpuAnswer.status == 0, "\(cpuAnswer)")
    #expect(cpuAnswer.standardOutput.contains("Paris"), "\(cpuAnswer.standardOutput)")

    let after = try json(try await onDevice.run(["doctor", "--json"]))
    let loads = try #require(after["loads"] as? [[String: Any]])
    #expect(loads.count == 2, "\(loads)")
    #expect(loads.first?["offload"] as? String == "31/31 layers on the GPU", "\(loads)")
    #expect(loads.last?["offload"] == nil, "\(loads)")
    let text = try await onDevice.run(["doctor"])
    #expect(text.standardOutput.contains("gpu set-up              vulkan; proof passed"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("31/31 layers on the GPU"), "\(text.standardOutput)")
  }

  @Test func withoutTheDeviceNamedNothingIsOffloadedAndTheDoctorSaysWhy() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    let report = try json(try await hearth.run(["doctor", "--json"]))
    let native = try #require(report["native"] as? [String: Any])
    #expect((native["gpu_devices"] as? [Any])?.isEmpty == true, "\(native)")
    let chosen = try #require(report["model"] as? [String: Any])
    #expect(chosen["offload"] as? String == "none: no GPU to offload to", "\(chosen)")
  }
}

@Suite("The GPU setting on the command line: auto or a layer count, anything else refused by name", .heavy)
struct GPULayersFlagTests {
  @Test func aSettingThatIsNeitherIsRefusedAndNamed() async throws {
    let hearth = CommandRunner(environment: ["HEARTH_MODEL": TestModels.smolLM2])
    for bad in ["lots", "-1", "1000"] {
      let result = try await hearth.run(["ask", "hi", "--gpu-layers=\(bad)", "--max-tokens", "1"])
      #expect(result.status != 0)
      #expect(result.standardError.contains("--gpu-layers"), "\(result.standardError)")
    }
    let saved = try await hearth.run(["models", "settings", "apply", "--gpu-layers", "0"])
    #expect(saved.status == 0, "\(saved)")
    let shown = try await hearth.run(["models", "settings", "show"])
    #expect(shown.standardOutput.contains("gpu layers     0"), "\(shown.standardOutput)")
    let refused = try await hearth.run(["models", "settings", "apply", "--gpu-layers", "some"])
    #expect(refused.status != 0 && refused.standardError.contains("--gpu-layers"), "\(refused.standardError)")
  }
}
