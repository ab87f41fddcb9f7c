import Crypto
import Foundation
import Testing

@testable import HearthPush

/// The encryption against RFC 8291's own example, byte for byte, and the VAPID token checked with the key it
/// names. The web tests decrypt Hearth's pushes with a receiver written apart from this one (Python's
/// `cryptography`).
@Suite("Web Push messages")
struct WebPushTests {
  static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

  @Test func theRFCsExampleIsEncryptedByteForByte() throws {
    let receiver = try P256.KeyAgreement.PublicKey(
      x963Representation: Self.bytes(
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"))
    let sender = try P256.KeyAgreement.PrivateKey(
      rawRepresentation: Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
    let body = try WebPushMessage.encrypt(
      Array("When I grow up, I want to be a watermelon".utf8), receiver: receiver,
      authSecret: Self.bytes("BTBZMqHH6r4Tts7J_aSIgg"), sender: sender, salt: Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
    #expect(
      Base64URL.encode(body)
        == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK"
        + "6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
  }

  @Test func eachMessageHasItsOwnSaltAndSenderAndTooLongOnesAreRefused() throws {
    let receiver = P256.KeyAgreement.PrivateKey().publicKey
    let auth = [UInt8](repeating: 7, count: 16)
    let first = try WebPushMessage.encrypt(Array("hi".utf8), receiver: receiver, authSecret: auth)
    let second = try WebPushMessage.encrypt(Array("hi".utf8), receiver: receiver, authSecret: auth)
    #expect(first.prefix(16) != second.prefix(16) && first.count == 16 + 4 + 1 + 65 + 2 + 1 + 16)
    #expect(throws: WebPushError.tooLong(3_001)) {
      try WebPushMessage.encrypt([UInt8](repeating: 0, count: 3_001), receiver: receiver, authSecret: auth)
    }
    #expect(throws: WebPushError.badAuthSecret) {
      try WebPushMessage.encrypt([1], receiver: receiver, authSecret: [1, 2])
    }
  }

  @Test func theVAPIDTokenIsSignedForTheEndpointsOriginWithTheKeyItNames() throws {
    let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:someone@example.org")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let header = try vapid.authorization(for: URL(string: "https://push.example.net:8443/send/abc?x=1")!, now: now)
    let parts = header.dropFirst("vapid t=".count).split(separator: ",")
    let token = String(parts[0])
    #expect(String(parts[1]) == " k=\(vapid.publicKey)")
    let pieces = token.split(separator: ".").map(String.init)
    let claims = try JSONSerialization.jsonObject(with: Data(Self.bytes(pieces[1]))) as? [String: Any]
    #expect(claims?["aud"] as? String == "https://push.example.net:8443")
    #expect(claims?["sub"] as? String == "mailto:someone@example.org")
    #expect(claims?["exp"] as? Int == 1_800_000_000 + 12 * 3600)
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(pieces[2]))
    let named = try P256.Signing.PublicKey(x963Representation: Self.bytes(vapid.publicKey))
    #expect(named.isValidSignature(signature, for: Data("\(pieces[0]).\(pieces[1])".utf8)))
  }
}
