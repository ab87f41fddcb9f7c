public import Foundation

/// A real CalDAV/CardDAV server on a loopback port for one test, with one user and a password: Radicale, or
/// Xandikos behind nginx's Basic authentication (Xandikos has none of its own). Both come from PyPI into the
/// cache's `venv-dav` (scripts/setup-dav.sh). It can be stopped and started again on the same port and
/// storage, as a server that goes away mid-sync and comes back.
public final class DAVServer: @unchecked Sendable {
  public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
    case radicale
    case xandikos
    public var description: String { rawValue }
  }

  public let kind: Kind
  public let user = "alice"
  public let password = "correct horse"
  /// The server's address, e.g. `http://127.0.0.1:40123/`.
  public let base: String
  /// The storage folder, kept across a stop and a start.
  public let storage: URL
  private let folder: URL
  private let port: UInt16
  /// Where Xandikos itself listens, behind nginx (the same after a restart).
  private let innerPort: UInt16
  private var process: Process?
  private var proxy: NginxServer?

  /// The virtual environment with the servers and the phone's client.
  public static var environment: URL {
    let cache =
      ProcessInfo.processInfo.environment["HEARTH_CACHE"].map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/hearth")
    return cache.appendingPathComponent("venv-dav")
  }

  /// Whether scripts/setup-dav.sh has run.
  public static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: environment.appendingPathComponent("bin/radicale").path)
  }

  public init(_ kind: Kind) throws {
    self.kind = kind
    folder = try TestModels.temporaryDirectory()
    storage = folder.appendingPathComponent("storage", isDirectory: true)
    try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
    port = try NginxServer.freePort()
    innerPort = try NginxServer.freePort()
    base = "http://127.0.0.1:\(port)/"
    try start()
  }

  /// Starts the server (again).
  public func start() throws {
    guard process?.isRunning != true else { return }
    let bin = Self.environment.appendingPathComponent("bin")
    let process = Process()
    let log = folder.appendingPathComponent("\(kind).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: log)
    process.standardError = process.standardOutput
    var listening = port
    switch kind {
    case .radicale:
      let users = folder.appendingPathComponent("users")
      try "\(user):\(password)\n".write(to: users, atomically: true, encoding: .utf8)
      process.executableURL = bin.appendingPathComponent("radicale")
      process.arguments = [
        "--server-hosts", "127.0.0.1:\(port)", "--auth-type", "htpasswd", "--auth-htpasswd-filename", users.path,
        "--auth-htpasswd-encryption", "plain", "--storage-filesystem-folder", storage.path,
      ]
    case .xandikos:
      // Xandikos answers on its own port; nginx in front of it asks for the password, as in its own guide.
      let inner = innerPort
      listening = inner
      process.executableURL = bin.appendingPathComponent("xandikos")
      process.arguments = [
        "serve", "--listen-address", "127.0.0.1", "--port", "\(inner)", "-d", storage.path, "--defaults",
        "--current-user-principal", "/\(user)/", "--route-prefix", "/",
      ]
      if proxy == nil {
        let users = folder.appendingPathComponent("htpasswd")
        try "\(user):{PLAIN}\(password)\n".write(to: users, atomically: true, encoding: .utf8)
        proxy = try NginxServer(
          root: folder, port: port,
          extraLocations: """
            location / {
              auth_basic "Hearth test"; auth_basic_user_file \(users.path);
              proxy_pass http://127.0.0.1:\(inner); proxy_set_header Host $http_host;
              proxy_set_header X-Forwarded-Proto http; client_max_body_size 64m;
            }
            """)
      }
    }
    try process.run()
    self.process = process
    for _ in 0..<200 {
      if NginxServer.accepts(port: listening) { return }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw NginxError("\(kind) did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
  }

  /// Stops the server; the storage stays.
  public func stop() {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit {
    stop()
    proxy?.stop()
  }

  /// Runs the phone (Python's caldav client, scripts/dav-phone.py) against the server; what it printed.
  @discardableResult
  public func phone(_ arguments: String...) throws -> String {
    try Self.phone(base: base, user: user, password: password, arguments)
  }

  /// Runs the phone against any CalDAV/CardDAV server (Hearth's own, in its tests); what it printed.
  /// - Throws: naming the command and what the phone wrote to its error output, when it fails.
  public static func phone(base: String, user: String, password: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = environment.appendingPathComponent("bin/python")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/dav-phone.py")
    process.arguments = [script.path, "--url", base, "--user", user, "--password", password] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let failed = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NginxError("phone \(arguments.joined(separator: " ")): \(String(decoding: failed, as: UTF8.self))")
    }
    return String(decoding: printed, as: UTF8.self)
  }

  /// Writes `text` to a temporary file for the phone to send.
  public func file(_ text: String) throws -> String {
    let url = folder.appendingPathComponent(UUID().uuidString)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }
}
