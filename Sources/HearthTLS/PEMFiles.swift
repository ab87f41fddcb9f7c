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
      try write(Data(text.utf8), to: path, permissions: 0o644)
    } catch let error as TLSError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
  }

  static func writeKey(_ key: Certificate.PrivateKey, to path: String) throws(TLSError) {
    do {
      try write(Data((try key.serializeAsPEM().pemString + "\n").utf8), to: path, permissions: 0o600)
    } catch let error as TLSError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
  }

  /// Writes through a temporary file in the same folder, created with `permissions` from the start, then
  /// renamed over `path`: a reader sees the old file or the whole new one.
  private static func write(_ data: Data, to path: String, permissions: Int) throws(TLSError) {
    let folder = (path as NSString).deletingLastPathComponent
    let manager = FileManager.default
    do {
      try manager.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotWrite(path: folder, reason: (error as NSError).localizedDescription)
    }
    let temporary = folder + "/." + UUID().uuidString + ".tmp"
    guard manager.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: permissions]) else {
      throw .cannotWrite(path: path, reason: "the file could not be created")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw .cannotWrite(path: path, reason: reason)
    }
  }
}
