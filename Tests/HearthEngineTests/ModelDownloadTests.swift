import Foundation
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import HearthEngine

func sha256(_ data: Data) -> String {
  var digest = SHA256Digest()
  digest.update(data)
  return digest.hex()
}

/// Serves `file` at `/model.gguf` honouring `Range: bytes=N-`, but closes the connection after sending
/// `dropAfter` bytes of each response (when set), and counts the requests and the ranges asked for.
final class FlakyServer: @unchecked Sendable {
  let file: Data
  let dropAfter: Int?
  private let lock = NSLock()
  private var ranges: [Int] = []

  init(file: Data, dropAfter: Int?) {
    self.file = file
    self.dropAfter = dropAfter
  }

  var requestedOffsets: [Int] { lock.withLock { ranges } }

  func application() -> some ApplicationProtocol {
    let router = Router()
    router.get("/model.gguf") { request, _ -> Response in
      let header = request.headers[.range] ?? ""
      let start = header.hasPrefix("bytes=") ? Int(header.dropFirst(6).split(separator: "-").first ?? "") ?? 0 : 0
      self.lock.withLock { self.ranges.append(start) }
      let slice = self.file[start...]
      var headers: HTTPFields = [.contentType: "application/octet-stream", .contentLength: "\(slice.count)"]
      if start > 0 { headers[.contentRange] = "bytes \(start)-\(self.file.count - 1)/\(self.file.count)" }
      let dropAfter = self.dropAfter
      return Response(
        status: start > 0 ? .partialContent : .ok, headers: headers,
        body: ResponseBody(contentLength: slice.count) { writer in
          let sent = dropAfter.map { min($0, slice.count) } ?? slice.count
          var offset = slice.startIndex
          while offset < slice.startIndex + sent {
            let end = min(offset + 65_536, slice.startIndex + sent)
            try await writer.write(ByteBuffer(bytes: slice[offset..<end]))
            offset = end
          }
          if sent < slice.count { throw CancellationError() }
          try await writer.finish(nil)
        })
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
  }
}

@Suite("Model downloads against real HTTP servers on loopback", .heavy)
struct ModelDownloadTests {
  let folder: URL
  let served: URL
  let registry: ModelRegistry

  init() throws {
    folder = try TestModels.temporaryDirectory().appendingPathComponent("models")
    served = try TestModels.temporaryDirectory()
    registry = ModelRegistry(folder: folder)
  }

  func partialFiles() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".partial").path))
    return (names ?? []).filter { $0.hasSuffix(".part") }
  }

  @Test func aPullFromNginxInstallsAVerifiedModelFollowingARedirect() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 3)
    try bytes.write(to: served.appendingPathComponent("tiny-chat.gguf"))
    let nginx = try NginxServer(root: served, extraLocations: "location = /latest { return 302 /tiny-chat.gguf; }")
    let reports = Reports()
    let model = try await ModelDownloader(registry: registry, destination: Self.local).pull(
      url: "\(nginx.base)/latest", sha256: sha256(bytes).uppercased(), name: "tiny-chat", progress: reports.add)
    #expect(model.id == "tiny-chat")
    #expect(model.status == .ready(verified: true))
    #expect(model.entry.role == .chat)
    #expect(try Data(contentsOf: URL(fileURLWithPath: model.path)) == bytes)
    #expect(try registry.installed().map(\.id) == ["tiny-chat"])
    #expect(partialFiles().isEmpty)
    #expect(reports.all.last?.isComplete == true)
    #expect(reports.all.last?.received == UInt64(bytes.count))
    #expect(nginx.accessLog().contains { $0.contains("GET /latest") && $0.contains(" 302 ") })
    // Pulling it again finds it installed and downloads nothing.
    let again = try await ModelDownloader(registry: registry, destination: Self.local).pull(
      url: "\(nginx.base)/latest", sha256: sha256(bytes), name: "tiny-chat")
    #expect(again.id == "tiny-chat")
    #expect(nginx.accessLog().count == 2)
  }

  @Test func anInterruptedPullKeepsItsBytesAndResumesWithARange() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 6, seed: 2)
    let hash = sha256(bytes)
    let flaky = FlakyServer(file: bytes, dropAfter: 2_000_000)
    let kept = try await flaky.application().test(.live) { client -> UInt64 in
      let port = try #require(client.port)
      let url = "http://127.0.0.1:\(port)/model.gguf"
      // The server cuts each response after 2 MB (what was still in flight may be lost with the connection).
      let error = await #expect(throws: ModelDownloadError.self) {
        _ = try await ModelDownloader(registry: registry, attempts: 1, destination: Self.local).pull(
          url: url, sha256: hash, name: "six")
      }
      guard case .interrupted(let received, let total, _) = error else {
        Issue.record("not reported as interrupted: \(String(describing: error))")
        return 0
      }
      #expect((1...2_000_000).contains(received))
      #expect(total == UInt64(bytes.count))
      // The bytes are kept, but nothing is installed.
      #expect(partialFiles().count == 1)
      #expect(try registry.installed().isEmpty)
      #expect(throws: ModelRegistryError.self) { try registry.use("six") }
      return received
    }
    // nginx finishes the same file from where the flaky server stopped.
    try bytes.write(to: served.appendingPathComponent("six.gguf"))
    let nginx = try NginxServer(root: served)
    let reports = Reports()
    let model = try await ModelDownloader(registry: registry, destination: Self.local).pull(
      url: "\(nginx.base)/six.gguf", sha256: hash, progress: reports.add)
    #expect(model.status == .ready(verified: true))
    #expect(kept > 0)
    #expect(reports.all.first?.resumedFrom == kept)
    #expect(nginx.accessLog().contains { $0.contains(" 206 ") })
    #expect(try Data(contentsOf: URL(fileURLWithPath: model.path)) == bytes)
    #expect(partialFiles().isEmpty)
  }

  @Test func oneCallResumesUntilTheFileIsWhole() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 5, seed: 3)
    let flaky = FlakyServer(file: bytes, dropAfter: 1_500_000)
    try await flaky.application().test(.live) { client in
      let port = try #require(client.port)
      let model = try await ModelDownloader(registry: registry, attempts: 10, destination: Self.local).pull(
        url: "http://127.0.0.1:\(port)/model.gguf", sha256: sha256(bytes), name: "five")
      #expect(model.status == .ready(verified: true))
      // Each attempt asked for the bytes after those already held.
      let offsets = flaky.requestedOffsets
      #expect(offsets.first == 0)
      #expect(offsets.count >= 4)
      #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 && $1 - $0 <= 1_500_000 })
    }
  }

  @Test func wrongBytesInstallNothingAndLeaveNothing() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 2, seed: 4)
    try bytes.write(to: served.appendingPathComponent("model.gguf"))
    let nginx = try NginxServer(root: served)
    let promised = sha256(GGUFBuilder.modelBytes(megabytes: 2, seed: 5))
    await #expect(throws: ModelDownloadError.hashMismatch(expected: promised, actual: sha256(bytes))) {
      _ = try await ModelDownloader(registry: registry, destination: Self.local).pull(
        url: "\(nginx.base)/model.gguf", sha256: promised)
    }
    #expect(try registry.installed().isEmpty)
    #expect(partialFiles().isEmpty)

    // The right hash, but not a model at all.
    let text = Data("just some text, not a model".utf8)
    try text.write(to: served.appendingPathComponent("notes.gguf"))
    await #expect {
      _ = try await ModelDownloader(registry: registry, destination: Self.local).pull(
        url: "\(nginx.base)/notes.gguf", sha256: sha256(text))
    } throws: { error in
      if case .notAModel = error as? ModelDownloadError { return true }
      return false
    }
    #expect(try registry.installed().isEmpty)
  }

  @Test func refusalsComeBeforeAnyByteIsWritten() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 2, seed: 6)
    try bytes.write(to: served.appendingPathComponent("model.gguf"))
    let nginx = try NginxServer(
      root: served, extraLocations: "location = /loop { return 302 /loop; } location = /gone { return 404; }")
    let hash = sha256(bytes)
    let full = ModelDownloader(registry: registry, destination: Self.local, freeSpace: { _ in 1_000_000 })
    await #expect {
      _ = try await full.pull(url: "\(nginx.base)/model.gguf", sha256: hash)
    } throws: { error in
      guard case .notEnoughSpace(let needed, let available, _) = error as? ModelDownloadError else { return false }
      return needed > UInt64(bytes.count) && available == 1_000_000
    }
    let downloader = ModelDownloader(registry: registry, destination: Self.local)
    await #expect(throws: ModelDownloadError.tooManyRedirects(url: "\(nginx.base)/loop")) {
      _ = try await downloader.pull(url: "\(nginx.base)/loop", sha256: hash)
    }
    await #expect(throws: ModelDownloadError.httpStatus(404, url: "\(nginx.base)/gone")) {
      _ = try await downloader.pull(url: "\(nginx.base)/gone", sha256: hash)
    }
    await #expect(throws: ModelDownloadError.invalidHash("abc")) {
      _ = try await downloader.pull(url: "\(nginx.base)/model.gguf", sha256: "abc")
    }
    await #expect(throws: ModelDownloadError.invalidURL("file:///etc/passwd")) {
      _ = try await downloader.pull(url: "file:///etc/passwd", sha256: hash)
    }
    for name in ["../../escape", "/etc/cron.d/x", "a b"] {
      await #expect(throws: ModelDownloadError.invalidName(name)) {
        _ = try await downloader.pull(url: "\(nginx.base)/model.gguf", sha256: hash, name: name)
      }
    }
    #expect(try registry.installed().isEmpty)
    #expect(
      partialFiles().allSatisfy {
        (try? Data(contentsOf: folder.appendingPathComponent(".partial/\($0)")))?.isEmpty == true
      })
  }

  /// The test servers run on this machine.
  static let local = PullDestination(allowsPrivateNetwork: true)

  @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
  func aDiskThatFillsDuringAPullStopsItAtOnceWithTheCauseAndItResumesOnceThereIsRoom() async throws {
    // Room for the pull's own check (the file and its margin) before the disk fills.
    let disk = try SmallFileSystem(megabytes: 32)
    let small = ModelRegistry(folder: disk.folder.appendingPathComponent("models"))
    let bytes = GGUFBuilder.modelBytes(megabytes: 5, seed: 11)
    let hash = sha256(bytes)
    try bytes.write(to: served.appendingPathComponent("five.gguf"))
    let nginx = try NginxServer(root: served)
    // Another program takes the room after the pull checked it: 2 MB are left when the bytes arrive.
    let filler = try disk.fill(leaving: 2 << 20)
    let error = await #expect(throws: ModelDownloadError.self) {
      _ = try await ModelDownloader(registry: small, destination: Self.local, freeSpace: { _ in 1 << 40 }).pull(
        url: "\(nginx.base)/five.gguf", sha256: hash, name: "five")
    }
    guard case .storage(_, let detail) = error else {
      Issue.record("not reported as a storage failure: \(String(describing: error))")
      return
    }
    #expect(detail.contains(String(cString: strerror(ENOSPC))), "\(detail)")
    // Retrying cannot help a full disk: one request, and what arrived is kept for the next pull.
    #expect(nginx.accessLog().count == 1, "\(nginx.accessLog())")
    let partial = disk.folder.appendingPathComponent("models/.partial")
    let kept = try FileManager.default.contentsOfDirectory(atPath: partial.path).filter { $0.hasSuffix(".part") }
    #expect(kept.count == 1)
    #expect(try small.installed().isEmpty)

    try FileManager.default.removeItem(at: filler)
    let model = try await ModelDownloader(registry: small, destination: Self.local).pull(
      url: "\(nginx.base)/five.gguf", sha256: hash, name: "five")
    #expect(model.status == .ready(verified: true))
    #expect(try Data(contentsOf: URL(fileURLWithPath: model.path)) == bytes)
    #expect(nginx.accessLog().contains { $0.contains(" 206 ") }, "\(nginx.accessLog())")
  }

  @Test func pullsReachOnlyPublicAddressesUnlessPrivateNetworksAreAllowed() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 1, seed: 8)
    try bytes.write(to: served.appendingPathComponent("model.gguf"))
    let nginx = try NginxServer(
      root: served,
      extraLocations: "location = /to-metadata { return 302 http://169.254.169.254/latest/meta-data/; }")
    let hash = sha256(bytes)
    let strict = ModelDownloader(registry: registry)
    await #expect(
      throws: ModelDownloadError.privateAddress(host: "127.0.0.1", address: "127.0.0.1", kind: "loopback")
    ) {
      _ = try await strict.pull(url: "\(nginx.base)/model.gguf", sha256: hash)
    }
    await #expect(throws: ModelDownloadError.privateAddress(host: "localhost", address: "localhost", kind: "loopback"))
    {
      _ = try await strict.pull(url: "http://localhost:9/model.gguf", sha256: hash)
    }
    // A redirect is checked before it is followed, even when the first address was allowed.
    let followed = ModelDownloader(
      registry: registry,
      destination: PullDestination(allowsPrivateNetwork: false) { host throws(ModelDownloadError) in
        host == "127.0.0.1" ? ["93.184.216.34"] : ["169.254.169.254"]
      })
    await #expect(
      throws: ModelDownloadError.privateAddress(host: "169.254.169.254", address: "169.254.169.254", kind: "link-local")
    ) {
      _ = try await followed.pull(url: "\(nginx.base)/to-metadata", sha256: hash)
    }
    #expect(try registry.installed().isEmpty)
    // Allowed, the same pull installs.
    #expect(
      try await ModelDownloader(registry: registry, destination: Self.local).pull(
        url: "\(nginx.base)/model.gguf", sha256: hash
      ).id == "model")
  }

  @Test(
    arguments: [
      ("127.0.0.1", "loopback"), ("127.8.9.1", "loopback"), ("::1", "loopback"), ("10.1.2.3", "private"),
      ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.10", "private"),
      ("169.254.169.254", "link-local"), ("fe80::1", "link-local"), ("fd00::1", "private (unique local)"),
      ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"), ("0.0.0.0", "unspecified"),
      ("::", "unspecified"), ("100.64.0.1", "shared (carrier-grade NAT)"), ("224.0.0.1", "multicast"),
      ("93.184.216.34", nil), ("172.32.0.1", nil), ("2606:4700::1111", nil), ("8.8.8.8", nil),
    ] as [(String, String?)])
  func addressKinds(address: String, kind: String?) {
    #expect(PullDestination.restrictedKind(of: address) == kind)
  }

  @Test func twoPullsOfOneFileAtOnceNeverShareIt() async throws {
    let bytes = GGUFBuilder.modelBytes(megabytes: 4, seed: 7)
    try bytes.write(to: served.appendingPathComponent("model.gguf"))
    let nginx = try NginxServer(root: served)
    let hash = sha256(bytes)
    let outcomes = await withTaskGroup(of: Result<String, ModelDownloadError>.self) { group in
      for _ in 0..<4 {
        group.addTask {
          do {
            return .success(
              try await ModelDownloader(registry: registry, destination: Self.local).pull(
                url: "\(nginx.base)/model.gguf", sha256: hash
              ).id)
          } catch let error as ModelDownloadError {
            return .failure(error)
          } catch {
            return .failure(.storage(path: "", detail: "\(error)"))
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    // Each either installed it or was told another download is under way; the file is whole either way.
    for outcome in outcomes {
      switch outcome {
      case .success(let id): #expect(id == "model")
      case .failure(let error): #expect(error == .busy(file: "model.gguf"))
      }
    }
    #expect(outcomes.contains { if case .success = $0 { true } else { false } })
    #expect(try Data(contentsOf: folder.appendingPathComponent("model.gguf")) == bytes)
  }
}

/// Progress reports collected from the downloader's callback.
final class Reports: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [DownloadProgress] = []
  var all: [DownloadProgress] { lock.withLock { reports } }
  func add(_ report: DownloadProgress) { lock.withLock { reports.append(report) } }
}
