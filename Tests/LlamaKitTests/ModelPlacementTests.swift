import Testing

@testable import LlamaKit

@Suite("Where a model's weights went, as llama.cpp's load log says")
struct ModelPlacementTests {
  @Test func readsTheOffloadedLayersAndTheBuffers() {
    let placement = ModelPlacement.read(
      logLines: [
        "load_tensors: offloading output layer to GPU",
        "load_tensors: offloading 29 repeating layers to GPU",
        "load_tensors: offloaded 31/31 layers to GPU",
        "load_tensors:   CPU_Mapped model buffer size =    28.12 MiB",
        "load_tensors:      Vulkan0 model buffer size =    80.50 MiB",
      ], layerCount: 30)
    #expect(placement.offloadedLayers == 31)
    #expect(placement.offloadableLayers == 31)
    #expect(placement.buffers.map(\.name) == ["CPU_Mapped", "Vulkan0"])
    #expect(placement.deviceBytes == UInt64(80.5 * 1_048_576))
  }

  @Test func aLoadWithoutAGPUSaysNothingOfLayersAndKeepsAllOnTheHost() {
    let placement = ModelPlacement.read(
      logLines: [
        "load_tensors:   CPU_Mapped model buffer size =    86.89 MiB",
        "load_tensors:   CPU_REPACK model buffer size =    20.00 MiB",
        "load_tensors:  Vulkan_Host model buffer size =     1.00 MiB",
      ], layerCount: 30)
    #expect(placement.offloadedLayers == 0)
    #expect(placement.offloadableLayers == 31)
    #expect(placement.deviceBytes == 0)
  }
}
