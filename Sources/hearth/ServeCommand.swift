import ArgumentParser
import Foundation
import HearthCore
import HearthEngine
import HearthServer
import HearthTLS
import Logging
import ServiceLifecycle
import UnixSignals

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the web app and an OpenAI-compatible API.",
    discussion: """
      Listens on 127.0.0.1 unless --host says otherwise; any other address needs an API key, which every \
      API request must then send as `Authorization: Bearer KEY`. --tls serves HTTPS with a certificate from \
      the profile's own certificate authority (made once; a phone trusts it from the page /ca); --tls-cert and \
      --tls-key serve a certificate of your own. Ctrl-C (or SIGTERM) lets running answers be saved and stops.
      """
  )

  @Option(name: .long, help: "Address to listen on.")
  var host = "127.0.0.1"

  @Option(name: .long, help: "Port to listen on (0 picks a free one).")
  var port = 8080

  @Option(
    name: .long,
    help: """
      API key required on every API request (default: $HEARTH_API_KEY). Other users of this machine can read \
      a command line: prefer --api-key-file or the variable.
      """)
  var apiKey: String?

  @Option(
    name: .customLong("api-key-file"), help: "Read the API key from this file (its first line), kept out of `ps`.")
  var apiKeyFile: String?

  @Option(name: .customLong("allow-origin"), help: "An origin whose pages may call the API (CORS); repeatable.")
  var allowedOrigins: [String] = []

  @Option(name: .customLong("allow-host"), help: "A host name accepted in requests besides this machine's; repeatable.")
  var allowedHosts: [String] = []

  @Flag(
    name: .customLong("tls"),
    help: ArgumentHelp(
      "Serve HTTPS with a certificate for this machine's names and addresses (and --host, --allow-host), signed by "
        + "the profile's own certificate authority, which a phone trusts from the page /ca."))
  var tls = false

  @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this certificate (PEM, the chain after it).")
  var tlsCertificate: String?

  @Option(name: .customLong("tls-key"), help: "The private key (PEM) of --tls-cert.")
  var tlsKey: String?

  @Option(name: .long, help: "Largest request body in bytes.")
  var maxBodyBytes = 1 << 20

  @Flag(
    name: .customLong("allow-private-network"),
    help: ArgumentHelp(
      "Let model downloads started from the web app, and push notifications, reach this machine and private "
        + "networks."))
  var allowPrivateNetwork = false

  @Option(name: .customLong("unload-after"), help: "Unload the model after this many idle seconds (0: never).")
  var unloadAfter = 1800

  @Option(
    name: .customLong("sync-every"),
    help: "Sync the accounts (hearth accounts) every this many seconds, and within seconds of a change here.")
  var syncEvery = 300

  @Option(
    name: .customLong("first-backup-after"),
    help: """
      Take the first scheduled backup (Settings, Backups) this many seconds after the start, then as scheduled.
      """)
  var firstBackupAfter = 600

  @Option(
    name: .customLong("unload-below"),
    help: "Unload the idle model when less than this many MiB of memory are available (0: never).")
  var unloadBelow = 256

  @Flag(
    name: .customLong("any-model-name"),
    help: """
      Answer a request that names no installed model with the chosen one, as llama-server does with every \
      name (default: a 404 model_not_found that lists the names there are).
      """)
  var anyModelName = false

  @Flag(
    name: .customLong("show-prompts"),
    help: """
      Every whole chat answer carries the prompt as the model saw it (__verbose.prompt), as llama-server's \
      --verbose does; a request's own verbose field decides for it either way.
      """)
  var showPrompts = false

  @OptionGroup var modelOptions: ModelOptionGroup

  /// The key from --api-key-file, --api-key (with a warning: it shows in the process list) or
  /// `HEARTH_API_KEY`, in that order; both flags at once are refused.
  func resolvedKey(environment: [String: String]) throws -> String? {
    if let apiKeyFile {
      guard apiKey == nil else { throw ValidationError("give the API key with --api-key or --api-key-file, not both") }
      guard let data = FileManager.default.contents(atPath: apiKeyFile) else {
        throw ValidationError("--api-key-file \(apiKeyFile) cannot be read")
      }
      let key = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
      let trimmed = key.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else {
        throw ValidationError("--api-key-file \(apiKeyFile) holds no key on its first line")
      }
      return trimmed
    }
    if let apiKey {
      Terminal.writeError(
        "warning: --api-key is visible to every user of this machine in the process list; "
          + "prefer --api-key-file or HEARTH_API_KEY\n")
      return apiKey
    }
    return environment["HEARTH_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Refuses a combination of the HTTPS flags that cannot be honoured, before anything is loaded.
  func checkTLSFlags() throws {
    if tls && tlsCertificate != nil { throw ValidationError("give --tls, or --tls-cert with --tls-key, not both") }
    if tlsCertificate != nil && tlsKey == nil { throw ValidationError("--tls-cert needs --tls-key") }
    if tlsKey != nil && tlsCertificate == nil { throw ValidationError("--tls-key needs --tls-cert") }
  }

  /// Whether `host` binds every address of the machine (no name a certificate or a browser can use).
  static func isWildcard(_ host: String) -> Bool { ["0.0.0.0", "::", "*"].contains(host) }

  /// The credentials to serve HTTPS with: the user's own, or the profile's local authority's; `nil` for HTTP.
  func credentials(profile: HearthPaths, host: String) throws -> ServerCredentials? {
    if let tlsCertificate, let tlsKey { return try ServerCredentials.own(certificate: tlsCertificate, key: tlsKey) }
    guard tls else { return nil }
    return try ServerCredentials.local(
      in: profile.tls,
      given: MachineNames(mixed: (Self.isWildcard(host) ? [] : [host]) + allowedHosts))
  }

  func run() async throws {
    try await reportingFailures {
      try checkTLSFlags()
      var settings = ServerConfiguration(
        host: host, port: port, apiKey: try resolvedKey(environment: ProcessInfo.processInfo.environment),
        allowedOrigins: allowedOrigins, allowedHosts: allowedHosts, maxBodyBytes: maxBodyBytes)
      settings.answersAnyModelName = anyModelName
      settings.showsPrompts = showPrompts
      settings.allowsPrivateNetworkPulls = allowPrivateNetwork
      try settings.validate()
      guard unloadAfter >= 0 else {
        throw ValidationError("--unload-after must be 0 or a number of seconds, not \(unloadAfter)")
      }
      guard syncEvery >= 10 else { throw ValidationError("--sync-every must be 10 seconds or more") }
      guard firstBackupAfter >= 0 else { throw ValidationError("--first-backup-after must be 0 or more seconds") }
      guard unloadBelow >= 0 else { throw ValidationError("--unload-below must be 0 or a number of MiB") }
      // Before the model loads: a certificate that cannot be served is said at once, not after a long load.
      settings.tls = try credentials(profile: HearthPaths(), host: host)
      // The Diagnostics page shows the latest lines the engine and the server log.
      let recentLog = RecentLog()
      let engine = try await Engine.openForChat(
        modelOptions, logger: recentLog.keeping(.commandLine(label: "hearth.engine", level: .info)))
      guard let model = engine.model else { return }
      // A push service of the user's own on the home network is reached only when private addresses are allowed.
      engine.push.allowPrivateNetwork(allowPrivateNetwork)
      let configuration = settings
      if configuration.tls == nil && !configuration.bindsLoopbackOnly {
        Terminal.writeError(
          "warning: plain HTTP on \(host): the API key and your chats cross the network unencrypted; add --tls\n")
      }
      let logger = Logger.commandLine(label: "hearth.server", level: .info)
      let dependencies = ServerDependencies(engine: engine, logger: logger, recentLog: recentLog)
      let app = try buildApplication(configuration: configuration, dependencies: dependencies) { port in
        let shown = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        Terminal.write("Hearth is listening on \(configuration.scheme)://\(shown):\(port) (model \(model.name))\n")
        if let authority = configuration.tls?.authority {
          let here = Self.isWildcard(configuration.host) ? "localhost" : shown
          Terminal.write("To use it from a phone, open https://\(here):\(port)/ca on this machine\n")
          Terminal.write("The phone must show this fingerprint for \(authority.name): \(authority.fingerprint)\n")
        }
      }
      // The next turn loads the model again; the first answer after an unload waits for that.
      let unloading = engine.idleUnloadService(
        idle: unloadAfter == 0 ? nil : .seconds(unloadAfter),
        pressure: unloadBelow == 0 ? nil : UInt64(unloadBelow) << 20, every: .seconds(10))
      let services: [any Service] =
        [
          app, engine.noticeScheduler(), engine.automationScheduler(), engine.machineCareService(),
          engine.accountSyncService(every: .seconds(syncEvery)),
          engine.backupSchedule(
            firstAfter: .seconds(firstBackupAfter), look: .seconds(60)),
        ]
        + (unloading.map { [$0] } ?? [])
      let group = ServiceGroup(
        configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
      // The remote server, if one is set up, is probed from now on, so turns find its standing measured.
      engine.routed?.startWatching()
      // The first search should not wait for the embedding model to load.
      let warming = Task { await engine.memory.warmUp() }
      defer { warming.cancel() }
      try await group.run()
      // The MCP servers Hearth started end with it.
      await engine.stopToolServers()
      withExtendedLifetime(engine) {}
    }
  }
}
