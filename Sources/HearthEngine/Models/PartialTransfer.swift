import AsyncHTTPClient
import Foundation
import HearthBackup
import HearthCore
import NIOCore
import NIOHTTP1

/// The unfinished file of one download and the running hash of its bytes.
struct PartialTransfer {
  /// How one request ended: with the file, or sent elsewhere.
  enum Outcome {
    case finished
    case redirect(URL)
  }

  let path: String
  /// The SHA-256 of every byte in the file so far.
  private(set) var digest = SHA256Digest()
  /// Bytes in the file so far.
  private(set) var size: UInt64 = 0

  /// Takes over what an earlier, interrupted download left at `path`, hashing it.
  init(path: String) throws {
    self.path = path
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw ModelDownloadError.storage(path: path, detail: "cannot create the file")
      }
    }
    do {
      size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
      digest = try SHA256Digest.ofFile(path, length: size)
    } catch {
      throw ModelDownloadError.storage(path: path, detail: "\(error)")
    }
  }

  /// Fetches the rest of the file: asks for the bytes after those held, appends what arrives, and starts
  /// over when the server cannot send a range.
  /// - Throws: ``ModelDownloadError/interrupted(received:total:detail:)`` when the connection ends early (the
  ///   bytes received are kept), other ``ModelDownloadError`` cases for what retrying cannot fix.
  mutating func receive(
    from url: URL, client: HTTPClient, freeSpace: () -> UInt64?,
    progress: @Sendable (DownloadProgress) -> Void
  ) async throws -> Outcome {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "User-Agent", value: "hearth")
    if size > 0 { request.headers.add(name: "Range", value: "bytes=\(size)-") }
    let response: HTTPClientResponse
    do {
      response = try await client.execute(request, timeout: .hours(24))
    } catch let error as HTTPClientError where error == .redirectLimitReached || error == .redirectCycleDetected {
      throw ModelDownloadError.tooManyRedirects(url: url.absoluteString)
    } catch {
      throw ModelDownloadError.interrupted(received: size, total: nil, detail: Self.describe(error))
    }
    let total: UInt64?
    switch response.status.code {
    case 206:
      guard let range = ContentRange(response.headers.first(name: "Content-Range")), range.start == size else {
        try restart()
        throw ModelDownloadError.interrupted(received: 0, total: nil, detail: "the server sent another range")
      }
      total = range.total
    case 200:
      // The server sends the whole file (it ignores ranges, or there was nothing to resume).
      try restart()
      total = response.headers.first(name: "Content-Length").flatMap { UInt64($0) }
    case 416:
      // Nothing after the bytes held: the file is complete, or the partial file is not this file's.
      let range = ContentRange(response.headers.first(name: "Content-Range"))
      if range?.total == size { return .finished }
      try restart()
      throw ModelDownloadError.interrupted(received: 0, total: range?.total, detail: "the server refused the range")
    case 301, 302, 303, 307, 308:
      // Followed by the downloader, which checks where each one leads before going there.
      guard let location = response.headers.first(name: "Location"),
        let next = URL(string: location, relativeTo: url)?.absoluteURL
      else { throw ModelDownloadError.httpStatus(Int(response.status.code), url: url.absoluteString) }
      return .redirect(next)
    default:
      throw ModelDownloadError.httpStatus(Int(response.status.code), url: url.absoluteString)
    }
    if let total, let free = freeSpace(), total > size, total - size + ModelDownloader.spaceMargin > free {
      throw ModelDownloadError.notEnoughSpace(
        needed: total - size + ModelDownloader.spaceMargin, available: free,
        folder: ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
    }
    // With no length stated, the free space is the bound, checked as the bytes arrive.
    let room =
      total == nil ? freeSpace().map { $0 > ModelDownloader.spaceMargin ? $0 - ModelDownloader.spaceMargin : 0 } : nil
    try await append(response.body, total: total, room: room, progress: progress)
    return .finished
  }

  private mutating func append(
    _ body: HTTPClientResponse.Body, total: UInt64?, room: UInt64?, progress: @Sendable (DownloadProgress) -> Void
  ) async throws {
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw ModelDownloadError.storage(path: path, detail: "cannot open the file")
    }
    defer { try? handle.close() }
    let clock = ContinuousClock()
    let started = clock.now
    var lastReport = started
    let resumedFrom = size
    func report(done: Bool) {
      let elapsed = (clock.now - started).seconds
      progress(
        DownloadProgress(
          received: size, total: total, resumedFrom: resumedFrom,
          bytesPerSecond: elapsed > 0 ? Double(size - resumedFrom) / elapsed : 0, isComplete: done))
    }
    do {
      try handle.truncate(atOffset: size)
      try handle.seek(toOffset: size)
      report(done: false)
      for try await buffer in body {
        let bytes = Data(buffer.readableBytesView)
        if let room, size - resumedFrom + UInt64(bytes.count) > room {
          throw ModelDownloadError.outgrewSpace(
            received: size, available: room,
            folder: ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        }
        do {
          try handle.write(contentsOf: bytes)
        } catch {
          // A full disk or a read-only one: retrying cannot help, and what arrived is what resumes later.
          throw ModelDownloadError.storage(
            path: path,
            detail: "\(FileErrorText.describe(error)); the \(size) bytes that arrived are kept: run the same "
              + "command again once there is room")
        }
        digest.update(bytes)
        size += UInt64(bytes.count)
        if clock.now - lastReport >= .milliseconds(100) {
          lastReport = clock.now
          report(done: false)
        }
      }
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as ModelDownloadError {
      throw error
    } catch let error as CocoaError {
      throw ModelDownloadError.storage(path: path, detail: "\(error)")
    } catch {
      throw ModelDownloadError.interrupted(received: size, total: total, detail: Self.describe(error))
    }
    if let total, size != total {
      throw ModelDownloadError.interrupted(
        received: size, total: total, detail: "the connection ended \(total > size ? "early" : "late")")
    }
    report(done: true)
  }

  /// Empties the file, to download it from the start.
  private mutating func restart() throws {
    guard size > 0 else { return }
    do {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 0)
      try handle.close()
    } catch {
      throw ModelDownloadError.storage(path: path, detail: "\(error)")
    }
    size = 0
    digest = SHA256Digest()
  }

  private static func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError { return "\(error)" }
    return String(describing: error)
  }
}

/// `Content-Range: bytes START-END/TOTAL` (or `bytes */TOTAL`).
struct ContentRange: Equatable {
  var start: UInt64?
  var total: UInt64?

  init?(_ header: String?) {
    guard let header, header.hasPrefix("bytes ") else { return nil }
    let spec = header.dropFirst(6)
    let parts = spec.split(separator: "/", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    total = UInt64(parts[1])
    if parts[0] != "*" {
      guard let dash = parts[0].firstIndex(of: "-"), let start = UInt64(parts[0][..<dash]) else { return nil }
      self.start = start
    }
  }
}
