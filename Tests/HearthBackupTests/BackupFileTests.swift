import Foundation
import HearthBackup
import Testing

@Suite("The backup file: written whole, read back with every byte checked")
struct BackupFileTests {
  /// Cheap enough for a test, the same code path as the standard cost.
  static let quick = KeyDerivationCost(rounds: 1 << 10, blockSize: 8, parallelism: 1)

  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-backup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A profile-like folder: a text file, one that does not compress, an empty one and one in a sub-folder.
  private func sources(in root: URL) throws -> [(URL, String, Data)] {
    var generator = SystemRandomNumberGenerator()
    let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let text = Data(String(repeating: "Dentist on Tuesday at 10. ", count: 20_000).utf8)
    let files: [(String, Data)] = [
      ("hearth.sqlite", text), ("documents/scan.bin", noise), ("documents/empty.txt", Data()),
      ("accounts/a.password", Data("secret".utf8)),
    ]
    return try files.map { name, data in
      let url = root.appendingPathComponent("src-\(name.replacingOccurrences(of: "/", with: "-"))")
      try data.write(to: url)
      return (url, name, data)
    }
  }

  private func write(
    _ files: [(URL, String, Data)], to url: URL, passphrase: String? = nil, frameSize: Int = 4096
  ) throws -> BackupManifest {
    let writer = try BackupWriter(creating: url, passphrase: passphrase, cost: Self.quick, frameSize: frameSize)
    for (source, name, _) in files { try writer.add(fileAt: source, as: name) }
    return try writer.finish(tables: ["note": 3, "session": 1], includes: ["passwords"])
  }

  @Test(arguments: [nil, "correct horse battery staple"])
  func roundTripRestoresEveryFileByteForByte(passphrase: String?) throws {
    let root = try folder()
    let files = try sources(in: root)
    let backup = root.appendingPathComponent("profile.hearthbackup")
    let written = try write(files, to: backup, passphrase: passphrase)
    #expect(!FileManager.default.fileExists(atPath: backup.path + ".partial"))
    #expect(written.entries.map(\.path) == files.map(\.1))

    let reader = try BackupReader(opening: backup, passphrase: passphrase)
    #expect((reader.header.sealing != nil) == (passphrase != nil))
    let target = root.appendingPathComponent("restored")
    let read = try reader.read(into: target)
    #expect(read == written)
    #expect(read.tables == ["note": 3, "session": 1])
    for (_, name, data) in files {
      #expect(try Data(contentsOf: target.appendingPathComponent(name)) == data, "\(name)")
    }
    // Checking only writes nothing.
    #expect(try BackupReader(opening: backup, passphrase: passphrase).read(into: nil) == written)
  }

  @Test func theTextIsCompressedAndTheSealedFileHoldsNoneOfIt() throws {
    let root = try folder()
    let files = try sources(in: root)
    let plain = root.appendingPathComponent("plain.hearthbackup")
    let sealed = root.appendingPathComponent("sealed.hearthbackup")
    _ = try write(files, to: plain)
    _ = try write(files, to: sealed, passphrase: "pass phrase")
    let total = files.reduce(0) { $0 + $1.2.count }
    let size = try Data(contentsOf: plain).count
    #expect(size < total / 2 + 310_000)
    let sealedBytes = try Data(contentsOf: sealed)
    #expect(sealedBytes.range(of: Data("Dentist".utf8)) == nil)
    #expect(sealedBytes.range(of: Data("secret".utf8)) == nil)
    #expect(sealedBytes.range(of: Data("documents/scan.bin".utf8)) == nil)
  }

  @Test func aWrongOrMissingPassphraseIsToldApartFromDamage() throws {
    let root = try folder()
    let backup = root.appendingPathComponent("b.hearthbackup")
    _ = try write(try sources(in: root), to: backup, passphrase: "right")
    #expect(throws: BackupError.wrongPassphrase(path: backup.path)) {
      try BackupReader(opening: backup, passphrase: "wrong")
    }
    #expect(throws: BackupError.passphraseNeeded(path: backup.path)) {
      try BackupReader(opening: backup, passphrase: nil)
    }
    #expect(throws: BackupError.unusablePassphrase("it is empty")) {
      try BackupWriter(creating: root.appendingPathComponent("c"), passphrase: "", cost: Self.quick)
    }
    // A passphrase typed with a combining accent opens one typed precomposed.
    let accented = root.appendingPathComponent("accent.hearthbackup")
    _ = try write(try sources(in: root), to: accented, passphrase: "caf\u{E9}")
    _ = try BackupReader(opening: accented, passphrase: "cafe\u{301}").read(into: nil)
  }

  private func damaged(_ body: () throws -> Void) {
    do {
      try body()
      Issue.record("a damaged backup was read as sound")
    } catch let error as BackupError {
      guard case .damaged = error else {
        Issue.record("expected damage, got \(error)")
        return
      }
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test(arguments: [nil, "phrase"])
  func aChangedCutOrLengthenedFileIsDamagedNeverRestoredHalfway(passphrase: String?) throws {
    let root = try folder()
    let backup = root.appendingPathComponent("b.hearthbackup")
    _ = try write(try sources(in: root), to: backup, passphrase: passphrase)
    let bytes = try Data(contentsOf: backup)
    var generator = SystemRandomNumberGenerator()
    for round in 0..<12 {
      var changed = bytes
      // Past the header: a flipped bit in the frames, anywhere.
      let at = Int.random(in: 400..<bytes.count, using: &generator)
      changed[at] ^= UInt8(1 << (round % 8))
      let url = root.appendingPathComponent("flipped-\(round)")
      try changed.write(to: url)
      damaged { _ = try BackupReader(opening: url, passphrase: passphrase).read(into: nil) }
    }
    let cut = root.appendingPathComponent("cut")
    try bytes.prefix(bytes.count - 7).write(to: cut)
    damaged { _ = try BackupReader(opening: cut, passphrase: passphrase).read(into: nil) }
    let longer = root.appendingPathComponent("longer")
    try (bytes + Data([0])).write(to: longer)
    damaged { _ = try BackupReader(opening: longer, passphrase: passphrase).read(into: nil) }
    #expect(throws: BackupError.notABackup(path: root.appendingPathComponent("src-hearth.sqlite").path)) {
      try BackupReader(opening: root.appendingPathComponent("src-hearth.sqlite"), passphrase: nil)
    }
  }

  @Test func pathsOutsideTheProfileAreRefusedBothWays() throws {
    let root = try folder()
    let source = root.appendingPathComponent("x")
    try Data("x".utf8).write(to: source)
    let writer = try BackupWriter(creating: root.appendingPathComponent("b"), passphrase: nil)
    for path in ["../x", "/etc/passwd", "a/../../x", "a//b", "", "./x", "a\\b"] {
      #expect(throws: BackupError.self) { try writer.add(fileAt: source, as: path) }
      #expect(!BackupPath.isSafe(path))
    }
    #expect(BackupPath.isSafe("documents/2026/scan.pdf"))
  }

  @Test func aBackupNotFinishedLeavesNothingAndNeverReplacesAFile() throws {
    let root = try folder()
    let url = root.appendingPathComponent("b.hearthbackup")
    do {
      let writer = try BackupWriter(creating: url, passphrase: nil)
      try writer.add(fileAt: try sources(in: root)[0].0, as: "hearth.sqlite")
      #expect(FileManager.default.fileExists(atPath: url.path + ".partial"))
    }
    #expect(!FileManager.default.fileExists(atPath: url.path + ".partial"))
    #expect(!FileManager.default.fileExists(atPath: url.path))
    try Data("mine".utf8).write(to: url)
    #expect(throws: BackupError.self) { try BackupWriter(creating: url, passphrase: nil) }
    #expect(try Data(contentsOf: url) == Data("mine".utf8))
  }

  @Test func aFolderThatCannotBeWrittenIsNamedWithItsCause() throws {
    let missing = URL(fileURLWithPath: "/proc/hearth-cannot-write-here/b.hearthbackup")
    do {
      _ = try BackupWriter(creating: missing, passphrase: nil)
      Issue.record("a backup was started where nothing can be written")
    } catch {
      guard case .write(let path, let detail) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path == missing.path)
      #expect(!detail.isEmpty)
    }
  }
}
