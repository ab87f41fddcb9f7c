import Foundation

/// App passwords, one file each under the profile's `accounts` folder, readable by the user only (0600 in a
/// 0700 folder). They are never logged and never part of an export or the audit log.
struct AccountPasswords: Sendable {
  let folder: URL

  func url(for accountID: String) -> URL { folder.appendingPathComponent("\(accountID).password") }

  func save(_ password: String, for accountID: String) throws(AccountError) {
    let manager = FileManager.default
    do {
      try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
      let target = url(for: accountID)
      // Created with 0600 before the secret is written, so it is never readable by others, not even briefly.
      if !manager.fileExists(atPath: target.path) {
        guard manager.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
          throw AccountError.password("could not create \(target.lastPathComponent)")
        }
      }
      try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
      let handle = try FileHandle(forWritingTo: target)
      defer { handle.closeFile() }
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Data(password.utf8))
    } catch let error as AccountError {
      throw error
    } catch {
      throw .password("could not keep it in \(folder.path): \(error.localizedDescription)")
    }
  }

  func load(for accountID: String) throws(AccountError) -> String {
    let data: Data
    do {
      data = try Data(contentsOf: url(for: accountID))
    } catch {
      throw .password("the saved password of this account is missing; add the account again")
    }
    return String(decoding: data, as: UTF8.self)
  }

  func remove(for accountID: String) {
    do {
      try FileManager.default.removeItem(at: url(for: accountID))
    } catch {
      // Already gone: nothing is left to remove.
    }
  }

  /// A password given in a file: its first line, so a trailing newline from `echo` is not part of it.
  static func read(file path: String) throws(AccountError) -> String {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .password("cannot read \(path): \(error.localizedDescription)")
    }
    let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    guard !first.isEmpty else { throw .password("\(path) is empty") }
    return first
  }
}
