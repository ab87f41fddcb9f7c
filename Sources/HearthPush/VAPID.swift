public import Crypto
public import Foundation

/// Voluntary application server identification (RFC 8292): each push request carries a short token signed with
/// the profile's own key, so a push service knows the sender and refuses anyone else's pushes to its
/// subscriptions.
public struct VAPID: Sendable {
  public let key: P256.Signing.PrivateKey
  /// A contact for the push service's operators: a `mailto:` or `https:` URI.
  public let subject: String

  public init(key: P256.Signing.PrivateKey, subject: String) {
    self.key = key
    self.subject = subject
  }

  /// The public key as browsers take it for `applicationServerKey`: 65 bytes, uncompressed, base64url.
  public var publicKey: String { Base64URL.encode(Array(key.publicKey.x963Representation)) }

  /// The `Authorization` header for a push to `endpoint`: a JWT (ES256) for the endpoint's origin, valid for
  /// `lifetime` (at most 24 hours), and the public key.
  public func authorization(
    for endpoint: URL, now: Date = Date(), lifetime: TimeInterval = 12 * 3600
  ) throws(WebPushError) -> String {
    guard let scheme = endpoint.scheme, let host = endpoint.host else { throw .encryption("no origin in the endpoint") }
    let origin = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
    let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
    let expiry = Int(now.addingTimeInterval(min(lifetime, 24 * 3600)).timeIntervalSince1970)
    let claims: [String: any Sendable] = ["aud": origin, "exp": expiry, "sub": subject]
    let body: Data
    do {
      body = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
    } catch {
      throw .encryption(String(describing: error))
    }
    let signed = header + "." + Base64URL.encode(Array(body))
    let signature: P256.Signing.ECDSASignature
    do {
      signature = try key.signature(for: Data(signed.utf8))
    } catch {
      throw .encryption(String(describing: error))
    }
    return "vapid t=\(signed).\(Base64URL.encode(Array(signature.rawRepresentation))), k=\(publicKey)"
  }
}

/// Base64 with the URL's alphabet and no padding, as Web Push writes keys and tokens.
public enum Base64URL {
  public static func encode(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  public static func decode(_ text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }
}
