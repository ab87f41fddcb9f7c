import Foundation

// Coverage-guided fuzzing of the parsers that take outside bytes, as one libFuzzer program: `make fuzz` builds
// it with `-sanitize=fuzzer` and `HEARTH_FUZZING` and runs it once per target, named by `HEARTH_FUZZ_TARGET`.
// An ordinary build gets a main that lists the targets.
#if HEARTH_FUZZING
/// The target chosen for this run, read once before the first input.
nonisolated(unsafe) private var chosen: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  let name = ProcessInfo.processInfo.environment["HEARTH_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(Data("HEARTH_FUZZ_TARGET must be one of: \(FuzzTarget.names)\n".utf8))
    exit(2)
  }
  chosen = target
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, let chosen else { return 0 }
  chosen.check(UnsafeBufferPointer(start: data, count: size))
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry as SwiftPM names it (it links `main` to it): libFuzzer's driver, given the arguments.
@_cdecl("HearthFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments) { data, size in fuzz(data, size) }
}
#else
@main
enum Main {
  static func main() {
    print("HearthFuzz is a libFuzzer program: run `make fuzz`, or scripts/fuzz.sh SECONDS TARGET… with targets")
    print(FuzzTarget.names)
  }
}
#endif
