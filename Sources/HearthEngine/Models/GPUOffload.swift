import Foundation
import HearthCore
import LlamaKit

/// Turns the GPU setting into the number of layers a load asks llama.cpp for.
enum GPUOffload {
  /// The layers to offload for the model at `path` with `contextTokens` of KV cache (all slots together):
  /// 0 when there is no GPU to offload to; for `auto`, as many as fit in the GPU's free memory by the same
  /// estimate that guards loads (``ModelShape/estimate(contextSize:)``); a count as given (llama.cpp offloads at
  /// most the model's layers and its output layer).
  static func layers(
    _ setting: GPULayers, path: String, contextTokens: Int?, devices: [GPUDevice] = GPUDevices.available()
  ) -> Int {
    guard !devices.isEmpty else { return 0 }
    switch setting {
    case .count(let count):
      return count
    case .auto:
      let shape: ModelShape
      do {
        shape = try ModelShape(path: path)
      } catch {
        // A header that cannot be read is left for the loader to report in its own words; nothing is offloaded.
        return 0
      }
      let estimate = shape.estimate(contextSize: contextTokens ?? shape.defaultContext)
      return GPUOffloadPlan.layers(
        layerCount: shape.layers, weightBytes: estimate.weights, kvCacheBytes: estimate.kvCache,
        freeBytes: devices.reduce(0) { $0 + $1.freeBytes })
    }
  }
}
