import CLlama
import Synchronization

/// rpc-server workers this process has connected to. ggml keeps a registered device for the life of the
/// process, and a model loaded without a device list would offload to every one of them; so once any worker is
/// known, every load names its devices: the workers it asked for, or none.
enum RPCWorkers {
  /// Devices by endpoint, as the addresses ggml gave (process-lifetime objects, kept as plain numbers).
  private static let known = Mutex<[String: [UInt]]>([:])

  /// The devices of the workers at `endpoints`, connecting to those not seen before.
  /// - Throws: ``LlamaError/rpcUnavailable(endpoint:reason:)`` for a malformed endpoint, a worker that does not
  ///   answer, or a llama.cpp built without RPC.
  static func devices(for endpoints: [String]) throws(LlamaError) -> [ggml_backend_dev_t] {
    var devices: [ggml_backend_dev_t] = []
    for endpoint in endpoints {
      try validate(endpoint)
      if let seen = known.withLock({ $0[endpoint] }) {
        devices += seen.compactMap { OpaquePointer(bitPattern: $0) }
        continue
      }
      // ggml's client ends the process when it cannot connect; a worker that is not there is named instead.
      let host = String(endpoint[..<endpoint.lastIndex(of: ":")!])
      let port = String(endpoint[endpoint.index(after: endpoint.lastIndex(of: ":")!)...])
      guard hearth_tcp_reachable(host, port, 3000) == 1 else {
        throw .rpcUnavailable(endpoint: endpoint, reason: "nothing answers there (is ggml-rpc-server running?)")
      }
      var found = [ggml_backend_dev_t?](repeating: nil, count: 16)
      let (count, errors) = LlamaLogCapture.capturingErrors {
        found.withUnsafeMutableBufferPointer { hearth_rpc_add_server(endpoint, $0.baseAddress, Int32($0.count)) }
      }
      switch count {
      case ..<0: throw .rpcUnavailable(endpoint: endpoint, reason: "this llama.cpp was built without the RPC backend")
      case 0:
        throw .rpcUnavailable(endpoint: endpoint, reason: errors.last ?? "no rpc-server answered there")
      default:
        let offered = found.prefix(Int(count)).compactMap { $0 }
        let addresses = offered.map { UInt(bitPattern: $0) }
        known.withLock { $0[endpoint] = addresses }
        devices += offered
      }
    }
    return devices
  }

  /// Whether any worker has been registered in this process.
  static var anyRegistered: Bool { known.withLock { !$0.isEmpty } }

  /// `host:port` with a port in 1…65535.
  static func validate(_ endpoint: String) throws(LlamaError) {
    guard let colon = endpoint.lastIndex(of: ":"), colon != endpoint.startIndex,
      let port = Int(endpoint[endpoint.index(after: colon)...]), (1...65_535).contains(port)
    else {
      throw .rpcUnavailable(endpoint: endpoint, reason: "expected host:port")
    }
  }
}
