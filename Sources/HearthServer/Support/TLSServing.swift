import HearthTLS
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

extension ServerCredentials {
  /// The credentials as a TLS server configuration: TLS 1.2 at least, the certificate chain as given.
  /// - Throws: ``ServerConfigurationError/unusableCertificate(_:)`` when BoringSSL refuses them (a key that is
  ///   not the certificate's among them).
  func serverTLSConfiguration() throws(ServerConfigurationError) -> TLSConfiguration {
    do {
      let chain = try certificateChainPEM.map { try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem) }
      let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
      var configuration = TLSConfiguration.makeServerConfiguration(
        certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
      configuration.minimumTLSVersion = .tlsv12
      // Building a context checks that the key is the certificate's, so a mismatch stops the start, by name.
      _ = try NIOSSLContext(configuration: configuration)
      return configuration
    } catch {
      throw .unusableCertificate(String(describing: error))
    }
  }
}

/// The server's HTTP/1.1 channel, inside TLS when the configuration has credentials.
func serverBuilder(for configuration: ServerConfiguration) throws -> HTTPServerBuilder {
  let http = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [ClientDepartureHandler()]))
  guard let credentials = configuration.tls else { return http }
  return try .tls(http, tlsConfiguration: credentials.serverTLSConfiguration())
}
