import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Certificates and keys in PEM files: read with errors that name the file, and written so that a key is
/// never readable by another user (its folder is the owner's alone, the file too).
enum PEMFiles {
  static func text(at path: String) throws(TLSError) -> String {
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Every certificate in the file, in order; at least one.
  static func certificates(at path: String) throws(TLSError) -> [Certificate] {
    let text = try text(at: path)
    let documents = (try? PEMDocument.parseMultiple(pemString: text)) ?? []
    let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }.compactMap {
      try? Certificate(derEncoded: $0.derBytes)
    }
    guard !certificates.isEmpty else { throw .notPEM(path: path, expected: "certificate") }
    return certificates
  }

  /// The private key in the file (PKCS #8, SEC 1 or RSA).
  static func privateKey(at path: String) throws(TLSError) -> Certificate.PrivateKey {
    let text = try text(at: path)
    guard let key = try? Certificate.PrivateKey(pemEncoded: text) else {
      throw .notPEM(path: path, expected: "private key")
    }
    return key
  }

  static func write(certificates: [Certificate], to path: String) throws(TLSError) {
    do {
      let text = try certificates.map { try $0.serializeAsPEM().pemString }.joined(separator: "\n") + "\n"
      try ProtectedFile.write(Data(text.utf8), to: path, permissions: 0o644)
    } catch let error as TLSError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
  }

  static func writeKey(_ key: Certificate.PrivateKey, to path: String) throws(TLSError) {
    do {
      try ProtectedFile.write(Data((try key.serializeAsPEM().pemString + "\n").utf8), to: path, permissions: 0o600)
    } catch let error as TLSError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
  }
}
