import Foundation
import HearthCore
import Testing

@Suite("GPU layers: the setting as written, and what auto chooses")
struct GPULayersTests {
  @Test func readsAutoOrACountAndNamesTheParameterOtherwise() throws {
    #expect(try GPULayers(parsing: "auto") == .auto)
    #expect(try GPULayers(parsing: " AUTO ") == .auto)
    #expect(try GPULayers(parsing: "0") == .count(0))
    #expect(try GPULayers(parsing: "999") == .count(999))
    for bad in ["-1", "1000", "all", "", "3.5"] {
      #expect {
        try GPULayers(parsing: bad, parameter: "--gpu-layers")
      } throws: { error in
        (error as? InvalidParameterError)?.name == "--gpu-layers"
      }
    }
  }

  @Test func isWrittenAsAutoOrANumberAndReadBackStrictly() throws {
    struct Holder: Codable, Equatable {
      var gpuLayers: GPULayers
      enum CodingKeys: String, CodingKey { case gpuLayers = "gpu_layers" }
    }
    for value in [GPULayers.auto, .count(0), .count(31)] {
      let data = try JSONEncoder().encode(Holder(gpuLayers: value))
      #expect(try JSONDecoder().decode(Holder.self, from: data) == Holder(gpuLayers: value))
    }
    #expect(
      String(decoding: try JSONEncoder().encode(Holder(gpuLayers: .auto)), as: UTF8.self) == #"{"gpu_layers":"auto"}"#)
    for bad in [#"{"gpu_layers":"all"}"#, #"{"gpu_layers":-1}"#, #"{"gpu_layers":5000}"#, #"{"gpu_layers":true}"#] {
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(Holder.self, from: Data(bad.utf8)) }
    }
  }

  @Test func autoOffloadsWhatFitsAfterTheReserveAndEverythingWhenAllFits() {
    let mib: UInt64 = 1 << 20
    // 30 layers and an output layer, 31 MiB of weights (1 MiB a slot) and 30 MiB of KV cache (1 MiB a layer).
    func layers(free: UInt64) -> Int {
      GPUOffloadPlan.layers(layerCount: 30, weightBytes: 31 * mib, kvCacheBytes: 30 * mib, freeBytes: free)
    }
    #expect(layers(free: 0) == 0)
    #expect(layers(free: 256 * mib) == 0, "the reserve alone")
    #expect(layers(free: 266 * mib) == 5, "10 MiB past the reserve: 5 layers of 2 MiB")
    #expect(layers(free: 8 << 30) == 31, "everything, output layer included")
    // A tenth of a large device's memory is kept free.
    #expect(GPUOffloadPlan.reserve(freeBytes: 10 << 30) == 1 << 30)
    #expect(
      GPUOffloadPlan.layers(layerCount: 30, weightBytes: 31 << 30, kvCacheBytes: 0, freeBytes: 11 << 30) == 9,
      "11 GiB free less a 1.1 GiB reserve holds 9 layers of 1 GiB")
    #expect(GPUOffloadPlan.layers(layerCount: 0, weightBytes: mib, kvCacheBytes: 0, freeBytes: 8 << 30) == 0)
  }
}
