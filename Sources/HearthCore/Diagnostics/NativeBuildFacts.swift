import Foundation

/// What the llama.cpp library in this process was built for, set against the CPU it runs on, and whether
/// set-up proved it with a real generation on this CPU. Safe for a bug report: no paths.
public struct NativeBuildFacts: Sendable, Encodable, Hashable {
  /// The CPU's name as the system reports it, when it does.
  public var cpuModel: String?
  /// The instruction-set flags the CPU reports that ggml can use (SSE/AVX/AVX-512/AMX families, FMA, F16C,
  /// BMI2, NEON…), in the system's order.
  public var cpuFeatures: [String]
  /// The instruction sets ggml's CPU backend was compiled with (`AVX2`, `AVX512_VNNI`, `AMX_INT8`…).
  public var compiledFeatures: [String]
  /// Compiled-in instruction sets this CPU does not report: code that would die with SIGILL if reached.
  public var unsupportedFeatures: [String]
  /// The CPU backend's other build options (`REPACK`, `LLAMAFILE`, `OPENMP`…).
  public var options: [String]
  /// The extra weight layouts the CPU backend offers (`CPU_REPACK`, `AMX`): the kernels in use for matrices.
  public var extraBufferTypes: [String]
  /// The set-up's proof of this build, when the library came from Hearth's set-up.
  public var proof: Proof?
  /// The GPU backends compiled into the library (`Vulkan`); empty for a CPU-only build.
  public var gpuBackends: [String] = []
  /// The GPUs layers can be offloaded to now.
  public var gpuDevices: [GPUDeviceFacts] = []

  /// A GPU as ggml sees it.
  public struct GPUDeviceFacts: Sendable, Encodable, Hashable {
    /// ggml's name (`Vulkan0`) and the driver's description.
    public var name: String
    public var description: String
    public var freeBytes: UInt64
    public var totalBytes: UInt64

    public init(name: String, description: String, freeBytes: UInt64, totalBytes: UInt64) {
      (self.name, self.description, self.freeBytes, self.totalBytes) = (name, description, freeBytes, totalBytes)
    }
  }

  /// The set-up's record of the generation it ran through the built library before first use.
  public struct Proof: Sendable, Encodable, Hashable {
    /// `passed` or `failed`.
    public var result: String
    /// The instruction sets the proven build was compiled for, as set-up names them.
    public var features: String
    /// The CPU it was proven on.
    public var cpu: String?
    /// When (ISO 8601).
    public var date: String?
    /// What failed before a fall-back to fewer instruction sets, if anything.
    public var detail: String?
    /// The GPU backend set-up built (`vulkan`, `cpu` for none), and why (the device it found, or what was
    /// missing).
    public var gpuBackend: String?
    public var gpuReason: String?
    /// The GPU proof: `passed`, `failed` (set-up then rebuilt for the CPU alone) or `not run` (no GPU backend).
    public var gpuResult: String?

    public init(result: String, features: String, cpu: String?, date: String?, detail: String?) {
      (self.result, self.features, self.cpu, self.date, self.detail) = (result, features, cpu, date, detail)
    }

    /// Reads set-up's `key=value` proof record; `nil` when it has no result line.
    public init?(record: String) {
      var fields: [String: String] = [:]
      for line in record.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
      }
      guard let result = fields["result"], !result.isEmpty else { return nil }
      self.init(
        result: result, features: fields["features"] ?? "", cpu: fields["cpu"].flatMap { $0.isEmpty ? nil : $0 },
        date: fields["date"], detail: fields["detail"].flatMap { $0.isEmpty ? nil : $0 })
      func field(_ name: String) -> String? { fields[name].flatMap { $0.isEmpty ? nil : $0 } }
      (gpuBackend, gpuReason, gpuResult) = (field("gpu_backend"), field("gpu_reason"), field("gpu_result"))
    }
  }

  public init(
    cpuModel: String?, cpuFeatures: [String], compiledFeatures: [String], unsupportedFeatures: [String],
    options: [String], extraBufferTypes: [String], proof: Proof?
  ) {
    self.cpuModel = cpuModel
    self.cpuFeatures = cpuFeatures
    self.compiledFeatures = compiledFeatures
    self.unsupportedFeatures = unsupportedFeatures
    self.options = options
    self.extraBufferTypes = extraBufferTypes
    self.proof = proof
  }
}

/// The CPU as `/proc/cpuinfo` describes it (Linux); other systems report no flags this way.
public struct CPUDescription: Sendable, Hashable {
  public var model: String?
  /// Every flag of the first processor, in the file's order.
  public var flags: [String]

  public init(model: String?, flags: [String]) {
    (self.model, self.flags) = (model, flags)
  }

  /// Reads the first processor's `model name` and `flags` (x86) or `Features` (ARM) lines.
  public init(cpuinfo: String) {
    var model: String?
    var flags: [String]?
    for line in cpuinfo.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if key == "model name", model == nil { model = value }
      if key == "flags" || key == "Features", flags == nil {
        flags = value.split(separator: " ").map(String.init)
      }
      if model != nil, flags != nil { break }
    }
    self.init(model: model, flags: flags ?? [])
  }
}
