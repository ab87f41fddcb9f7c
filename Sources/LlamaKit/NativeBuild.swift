internal import CLlama
import Foundation
public import HearthCore

/// What the loaded llama.cpp library was compiled for and what the CPU under it offers.
public enum NativeBuild {
  /// ggml's name for each instruction set its CPU backend reports, and the `/proc/cpuinfo` flag that
  /// says the CPU has it. A compiled feature whose flag is missing is code this CPU cannot run.
  static let instructionSets: [String: String] = [
    "SSE3": "pni", "SSSE3": "ssse3", "AVX": "avx", "AVX_VNNI": "avx_vnni", "AVX2": "avx2", "F16C": "f16c",
    "FMA": "fma", "BMI2": "bmi2", "AVX512": "avx512f", "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni", "AVX512_BF16": "avx512_bf16", "AMX_INT8": "amx_int8", "NEON": "asimd",
    "ARM_FMA": "asimd", "FP16_VA": "asimdhp", "DOTPROD": "asimddp", "MATMUL_INT8": "i8mm", "SVE": "sve",
    "SME": "sme",
  ]

  /// The cpuinfo flags worth naming in a report: the vector, matrix and bit-manipulation families.
  static func isInstructionSetFlag(_ flag: String) -> Bool {
    let families = ["sse", "avx", "amx", "bmi", "asimd"]
    let single: Set = ["ssse3", "pni", "fma", "f16c", "sve", "sve2", "sme", "sme2", "i8mm"]
    return single.contains(flag) || families.contains { flag.hasPrefix($0) }
  }

  /// The facts for `hearth doctor`: this CPU, ggml's CPU backend as compiled, the weight layouts it offers,
  /// and set-up's proof record found beside the library that was loaded.
  public static func facts() -> NativeBuildFacts {
    LlamaBackend.ensureInitialised()
    let cpu = currentCPU()
    var compiled: [String] = []
    var options: [String] = []
    var extraBufferTypes: [String] = []
    if let registry = ggml_backend_reg_by_name("CPU") {
      if let address = ggml_backend_reg_get_proc_address(registry, "ggml_backend_get_features") {
        let getFeatures = unsafeBitCast(address, to: ggml_backend_get_features_t.self)
        var feature = getFeatures(registry)
        while let current = feature, let name = current.pointee.name {
          let text = String(cString: name)
          if instructionSets[text] != nil { compiled.append(text) } else { options.append(text) }
          feature = current.advanced(by: 1)
        }
      }
      extraBufferTypes = bufferTypeNames(registry: registry)
    }
    let unsupported =
      cpu.flags.isEmpty
      ? [] : compiled.filter { instructionSets[$0].map { !cpu.flags.contains($0) } ?? false }
    var facts = NativeBuildFacts(
      cpuModel: cpu.model, cpuFeatures: cpu.flags.filter(isInstructionSetFlag), compiledFeatures: compiled,
      unsupportedFeatures: unsupported, options: options, extraBufferTypes: extraBufferTypes,
      proof: proofRecord())
    facts.gpuBackends = GPUDevices.compiledBackends()
    facts.gpuDevices = GPUDevices.available().map {
      .init(name: $0.name, description: $0.description, freeBytes: $0.freeBytes, totalBytes: $0.totalBytes)
    }
    return facts
  }

  /// This machine's CPU as the system describes it; no flags where `/proc/cpuinfo` does not exist.
  static func currentCPU() -> CPUDescription {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return CPUDescription(model: nil, flags: [])
    }
    return CPUDescription(cpuinfo: text)
  }

  private static func bufferTypeNames(registry: ggml_backend_reg_t) -> [String] {
    guard let device = ggml_backend_reg_dev_get(registry, 0),
      let address = ggml_backend_reg_get_proc_address(registry, "ggml_backend_dev_get_extra_bufts")
    else { return [] }
    let getExtra = unsafeBitCast(address, to: ggml_backend_dev_get_extra_bufts_t.self)
    var names: [String] = []
    var slot = getExtra(device)
    while let current = slot, let bufferType = current.pointee {
      names.append(String(cString: ggml_backend_buft_name(bufferType)))
      slot = current.advanced(by: 1)
    }
    return names
  }

  /// Set-up writes `.hearth-proof` into the prefix it installed llama.cpp to; the prefix is found from
  /// the shared library this process actually loaded, so the record always belongs to the code in use.
  private static func proofRecord() -> NativeBuildFacts.Proof? {
    guard let file = hearth_llama_library_path() else { return nil }
    let library = URL(fileURLWithPath: String(cString: file)).resolvingSymlinksInPath()
    let prefix = library.deletingLastPathComponent().deletingLastPathComponent()
    guard let record = try? String(contentsOf: prefix.appendingPathComponent(".hearth-proof"), encoding: .utf8)
    else { return nil }
    return NativeBuildFacts.Proof(record: record)
  }
}
