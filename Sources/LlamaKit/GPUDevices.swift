internal import CLlama
import Foundation

/// A GPU that ggml can offload layers to (a Vulkan device, …). RPC workers are not counted: they are chosen
/// by `--rpc`, not by the GPU setting.
public struct GPUDevice: Sendable, Hashable {
  /// ggml's name for it (`Vulkan0`).
  public var name: String
  /// The driver's description (`NVIDIA GeForce RTX 4070`, `llvmpipe (LLVM 15.0.6, 256 bits)`).
  public var description: String
  /// The backend it belongs to (`Vulkan`).
  public var backend: String
  /// Whether it shares the system's memory (an integrated GPU).
  public var integrated: Bool
  /// Memory free on it now, and in all.
  public var freeBytes: UInt64
  public var totalBytes: UInt64
}

/// The GPU backends the loaded llama.cpp library was built with, and their devices.
public enum GPUDevices {
  /// The devices layers can be offloaded to now. ggml's Vulkan backend leaves out CPU-type drivers (Mesa's
  /// lavapipe) unless `GGML_VK_VISIBLE_DEVICES` names them, so such a driver is listed only then.
  public static func available() -> [GPUDevice] {
    LlamaBackend.ensureInitialised()
    var devices: [GPUDevice] = []
    for index in 0..<ggml_backend_dev_count() {
      guard let device = ggml_backend_dev_get(index) else { continue }
      let type = ggml_backend_dev_type(device)
      guard type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU else { continue }
      let backend = ggml_backend_dev_backend_reg(device).map { String(cString: ggml_backend_reg_name($0)) } ?? "?"
      guard backend != "RPC" else { continue }
      var free = 0
      var total = 0
      ggml_backend_dev_memory(device, &free, &total)
      devices.append(
        GPUDevice(
          name: String(cString: ggml_backend_dev_name(device)),
          description: String(cString: ggml_backend_dev_description(device)), backend: backend,
          integrated: type == GGML_BACKEND_DEVICE_TYPE_IGPU, freeBytes: UInt64(max(0, free)),
          totalBytes: UInt64(max(0, total))))
    }
    return devices
  }

  /// The GPU backends compiled into the library (`Vulkan`), whether or not they found a device.
  public static func compiledBackends() -> [String] {
    LlamaBackend.ensureInitialised()
    return (0..<ggml_backend_reg_count()).compactMap { index in
      guard let registry = ggml_backend_reg_get(index) else { return nil }
      let name = String(cString: ggml_backend_reg_name(registry))
      return ["CPU", "RPC", "BLAS"].contains(name) ? nil : name
    }
  }
}

/// Where a loaded model's weights went, as llama.cpp reported it while loading.
public struct ModelPlacement: Sendable, Hashable {
  /// Layers on a GPU, counting the output layer.
  public var offloadedLayers: Int
  /// Layers that could be offloaded: the repeating layers and the output layer.
  public var offloadableLayers: Int
  /// Bytes of weights per buffer (`CPU_Mapped`, `CPU_REPACK`, `Vulkan0` …), in llama.cpp's order.
  public var buffers: [Buffer]

  /// One of the buffers the weights were loaded into.
  public struct Buffer: Sendable, Hashable {
    public var name: String
    public var bytes: UInt64
    /// Whether the buffer is in the system's memory (the CPU's own, or a GPU backend's pinned host memory).
    public var isHost: Bool { name.hasPrefix("CPU") || name.hasSuffix("_Host") || name == "AMX" }
  }

  /// Bytes of weights on a GPU.
  public var deviceBytes: UInt64 { buffers.filter { !$0.isHost }.reduce(0) { $0 + $1.bytes } }

  /// Reads llama.cpp's load log: "offloaded N/M layers to GPU" (absent when no GPU can be used) and
  /// "NAME model buffer size = X MiB".
  static func read(logLines: [String], layerCount: Int) -> ModelPlacement {
    var placement = ModelPlacement(offloadedLayers: 0, offloadableLayers: layerCount + 1, buffers: [])
    for line in logLines {
      let text = line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? line
      if let range = text.range(of: "offloaded "), let slash = text[range.upperBound...].firstIndex(of: "/") {
        placement.offloadedLayers = Int(text[range.upperBound..<slash]) ?? 0
        let rest = text[text.index(after: slash)...].prefix { $0.isNumber }
        placement.offloadableLayers = Int(rest) ?? placement.offloadableLayers
      } else if let range = text.range(of: " model buffer size =") {
        let name = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        let number = text[range.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0 != " " }
        if let mebibytes = Double(number) {
          placement.buffers.append(Buffer(name: name, bytes: UInt64(mebibytes * 1_048_576)))
        }
      }
    }
    return placement
  }
}

/// Keeps the Vulkan loader from loading its drivers on a machine with no GPU. Loading them (Mesa's drivers link
/// LLVM) added about 55 MB of resident memory and 40 ms to every process on this project's machines, only for
/// ggml to find no device: the one driver that works there, lavapipe, runs on the CPU, and ggml skips it unless
/// `GGML_VK_VISIBLE_DEVICES` names it.
enum GPUDrivers {
  /// Before ggml starts: where Linux shows no GPU (no DRM render node, no NVIDIA device) and neither
  /// `GGML_VK_VISIBLE_DEVICES` nor the loader's own `VK_LOADER_DRIVERS_DISABLE` is set, tells the loader to load
  /// no driver. Runs once, before any thread of llama.cpp's exists.
  static func skipWhereNoGPUCanBe() {
    #if os(Linux)
    let environment = ProcessInfo.processInfo.environment
    guard environment["GGML_VK_VISIBLE_DEVICES"] == nil, environment["VK_LOADER_DRIVERS_DISABLE"] == nil,
      !gpuNodeExists()
    else { return }
    setenv("VK_LOADER_DRIVERS_DISABLE", "*", 0)
    #endif
  }

  private static func gpuNodeExists() -> Bool {
    let files = FileManager.default
    let renderNodes = (try? files.contentsOfDirectory(atPath: "/dev/dri")) ?? []
    return renderNodes.contains { $0.hasPrefix("renderD") } || files.fileExists(atPath: "/dev/nvidia0")
  }
}
