import HearthCore
import Testing

@Suite("The CPU and the set-up's proof record, as doctor reads them")
struct NativeBuildFactsTests {
  @Test func readsTheFirstProcessorsNameAndFlags() {
    let cpuinfo = """
      processor\t: 0
      vendor_id\t: GenuineIntel
      model name\t: Intel(R) Xeon(R) Processor
      flags\t\t: fpu sse4_2 avx avx2 avx512f amx_tile amx_int8
      processor\t: 1
      model name\t: Another
      flags\t\t: fpu
      """
    let cpu = CPUDescription(cpuinfo: cpuinfo)
    #expect(cpu.model == "Intel(R) Xeon(R) Processor")
    #expect(cpu.flags == ["fpu", "sse4_2", "avx", "avx2", "avx512f", "amx_tile", "amx_int8"])
  }

  @Test func readsARMFeatures() {
    let cpu = CPUDescription(cpuinfo: "processor : 0\nFeatures : fp asimd asimddp sve\n")
    #expect(cpu.model == nil)
    #expect(cpu.flags == ["fp", "asimd", "asimddp", "sve"])
  }

  @Test func readsAProofRecordAndRefusesOneWithoutAResult() throws {
    let record = """
      result=passed
      features=sse42 avx avx2 fma f16c bmi2
      cpu=Intel(R) Xeon(R) Processor
      date=2026-11-26T10:00:00Z
      detail=fell back after: [sse42 avx avx2 avx512: llama-completion died of signal 4 (ILL)]
      """
    let proof = try #require(NativeBuildFacts.Proof(record: record))
    #expect(proof.result == "passed")
    #expect(proof.features == "sse42 avx avx2 fma f16c bmi2")
    #expect(proof.cpu == "Intel(R) Xeon(R) Processor")
    #expect(proof.detail?.contains("signal 4") == true)
    #expect(NativeBuildFacts.Proof(record: "features=avx\n") == nil)
    #expect(NativeBuildFacts.Proof(record: "result=passed\ndetail=\n")?.detail == nil)
  }
}
