public import Crypto
import Foundation

/// A push message's body as RFC 8291 encrypts it for one subscription (the `aes128gcm` content coding of RFC
/// 8188, one record): only the browser that subscribed can read it; the push service in between sees bytes.
public enum WebPushMessage {
  /// The most plaintext one message carries: the record (4096 bytes) less the tag and the padding delimiter,
  /// rounded down.
  public static let maxPlaintext = 3_000

  /// Encrypts `plaintext` for the subscription whose public key is `receiver` (65 bytes, uncompressed) and whose
  /// authentication secret is `authSecret` (16 bytes). `sender` and `salt` are fresh for every message; they are
  /// parameters only so the RFC's own example can be checked.
  public static func encrypt(
    _ plaintext: [UInt8], receiver: P256.KeyAgreement.PublicKey, authSecret: [UInt8],
    sender: P256.KeyAgreement.PrivateKey = .init(), salt: [UInt8]? = nil
  ) throws(WebPushError) -> [UInt8] {
    guard plaintext.count <= maxPlaintext else { throw .tooLong(plaintext.count) }
    guard authSecret.count == 16 else { throw .badAuthSecret }
    let salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
    let receiverBytes = Array(receiver.x963Representation)
    let senderBytes = Array(sender.publicKey.x963Representation)
    let shared: SharedSecret
    do {
      shared = try sender.sharedSecretFromKeyAgreement(with: receiver)
    } catch {
      throw .badReceiverKey
    }
    let ecdh = shared.withUnsafeBytes { Array($0) }
    // RFC 8291, 3.3 and 3.4: the input keying material from the ECDH secret and the authentication secret, then
    // the content encryption key and nonce from it and the salt.
    let keyInfo = Array("WebPush: info\0".utf8) + receiverBytes + senderBytes
    let inputKey = expand(extract(salt: authSecret, input: ecdh), info: keyInfo, count: 32)
    let pseudoRandom = extract(salt: salt, input: inputKey)
    let contentKey = expand(pseudoRandom, info: Array("Content-Encoding: aes128gcm\0".utf8), count: 16)
    let nonce = expand(pseudoRandom, info: Array("Content-Encoding: nonce\0".utf8), count: 12)
    let sealed: AES.GCM.SealedBox
    do {
      // One record, the last: the plaintext and the delimiter 0x02, no further padding.
      sealed = try AES.GCM.seal(
        plaintext + [0x02], using: SymmetricKey(data: contentKey), nonce: AES.GCM.Nonce(data: nonce))
    } catch {
      throw .encryption(String(describing: error))
    }
    let recordSize: UInt32 = 4096
    let header =
      salt + withUnsafeBytes(of: recordSize.bigEndian) { Array($0) } + [UInt8(senderBytes.count)] + senderBytes
    return header + Array(sealed.ciphertext) + Array(sealed.tag)
  }

  static func extract(salt: [UInt8], input: [UInt8]) -> [UInt8] {
    Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: salt)))
  }

  /// HKDF-Expand (RFC 5869) for at most one block, which is all Web Push asks for.
  static func expand(_ key: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
    Array(HMAC<SHA256>.authenticationCode(for: info + [0x01], using: SymmetricKey(data: key)).prefix(count))
  }
}

/// Why a push message could not be made or sent.
public enum WebPushError: Error, Sendable, Hashable, CustomStringConvertible {
  case tooLong(Int)
  case badAuthSecret
  case badReceiverKey
  case encryption(String)

  public var description: String {
    switch self {
    case .tooLong(let count): "a push message holds at most \(WebPushMessage.maxPlaintext) bytes, not \(count)"
    case .badAuthSecret: "a subscription's authentication secret must be 16 bytes"
    case .badReceiverKey: "a subscription's key must be a P-256 public key (65 bytes, uncompressed)"
    case .encryption(let reason): "the push message could not be encrypted: \(reason)"
    }
  }
}
