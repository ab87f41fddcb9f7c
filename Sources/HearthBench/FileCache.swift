import Foundation

#if os(Linux)
import Glibc
#endif

/// The system's page cache for one file: dropping it, for a measured cold start, and how much of it is there.
enum FileCache {
  /// Asks the system to drop the file's pages from its cache (they must not be mapped by a running process).
  /// - Throws: ``BenchmarkError/measurementFailed(_:)`` where the system cannot be asked (not Linux).
  static func drop(_ path: String) throws(BenchmarkError) {
    #if os(Linux)
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .measurementFailed("\(path) cannot be opened") }
    defer { close(descriptor) }
    // Pages not yet written back (a file just copied) cannot be dropped: written first.
    guard fdatasync(descriptor) == 0, posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0 else {
      throw .measurementFailed("the page cache of \(path) cannot be dropped")
    }
    #else
    throw .measurementFailed("dropping a file from the page cache needs Linux's posix_fadvise")
    #endif
  }

  /// The share of the file's pages in the cache now, from 0 to 1.
  static func residentShare(_ path: String) throws(BenchmarkError) -> Double {
    #if os(Linux)
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .measurementFailed("\(path) cannot be opened") }
    defer { close(descriptor) }
    // The size from the file's end rather than fstat's record: on Linux that record's type is CoreFoundation's,
    // which a target under MemberImportVisibility cannot name.
    let end = lseek(descriptor, 0, SEEK_END)
    guard end > 0 else { return 0 }
    let size = Int(end)
    guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
      throw .measurementFailed("\(path) cannot be mapped")
    }
    defer { munmap(mapped, size) }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    var pages = [UInt8](repeating: 0, count: (size + page - 1) / page)
    guard mincore(mapped, size, &pages) == 0 else { throw .measurementFailed("mincore failed on \(path)") }
    return Double(pages.count { $0 & 1 == 1 }) / Double(pages.count)
    #else
    throw .measurementFailed("reading the page cache needs Linux's mincore")
    #endif
  }
}
