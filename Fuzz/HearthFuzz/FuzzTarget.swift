import Foundation
import HearthActions
import HearthCore
import HearthDAV
import HearthForms
import HearthInterchange
import HearthSpeech
import LlamaKit
import NIOCore

/// One parser under fuzzing: any outcome for an input but a crash or a broken promise is fine.
struct FuzzTarget: Sendable {
  var name: String
  var check: @Sendable (UnsafeBufferPointer<UInt8>) -> Void

  static var names: String { all.map(\.name).joined(separator: ", ") }

  static let all: [FuzzTarget] = [
    FuzzTarget(name: "ActionBlocks") { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      for block in ActionBlockParser.parse(text).blocks {
        // Every block is a piece of the text; checking it either passes or throws.
        precondition(text.contains(block.raw))
        _ = try? block.validated()
      }
      // Defused text holds no block at all, known or not.
      let defused = ActionBlockParser.parse(ActionBlockParser.defused(text))
      precondition(defused.blocks.isEmpty && defused.malformed.isEmpty)
    },
    FuzzTarget(name: "SchemaGrammar") { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      _ = try? GrammarLimits.check(text)
      // A raw grammar the follower reads is followed through its own text without a crash or a hang.
      if let raw = try? GBNFGrammar(text) {
        var follower = GrammarFollower(raw)
        _ = follower.forcedText(limit: 32)
        follower.accept(bytes: bytes.prefix(256))
        _ = follower.forcedText(limit: 32)
      }
      guard let schema = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
        let grammar = try? JSONSchemaGrammar.grammar(for: schema)
      else { return }
      // What the builder writes is always within the limits a raw grammar is held to, and always followed.
      precondition((try? GrammarLimits.check(grammar)) != nil)
      precondition((try? GBNFGrammar(grammar)) != nil)
    },
    FuzzTarget(name: "ICalendar") { bytes in
      _ = try? ICalendar.read(Data(bytes), local: TimeZone(identifier: "UTC")!)
    },
    FuzzTarget(name: "VCard") { bytes in _ = try? VCard.read(Data(bytes)) },
    FuzzTarget(name: "Multistatus") { bytes in
      // A server's answer: every response read has an href, and its collections a kind.
      guard let answer = try? Multistatus.parse(Data(bytes)) else { return }
      for response in answer.responses { precondition(!response.href.isEmpty) }
    },
    FuzzTarget(name: "SyncedBodies") { bytes in
      // A server's body patched with a changed title: never a crash, and what was not an event stays as it was.
      let text = String(decoding: bytes, as: UTF8.self)
      guard
        let event = (try? ICalendar.read(Data(bytes), local: TimeZone(identifier: "UTC")!))?.events.items.first?.item
      else { return }
      var changed = event
      changed.title += " (changed)"
      _ = SyncedBodies.patched(text, from: event, to: changed)
    },
    FuzzTarget(name: "MarkdownNotes") { bytes in
      _ = try? MarkdownNotes.read(
        String(decoding: bytes, as: UTF8.self), path: "fuzz.md", modified: Date(timeIntervalSince1970: 0))
    },
    FuzzTarget(name: "WAV") { bytes in
      if let clip = try? WAVDecoder.decode(Data(bytes)) { precondition(clip.sampleRate > 0) }
    },
    FuzzTarget(name: "Multipart") { bytes in
      // The first line is the Content-Type header, the rest the body, as the transcription route gets them.
      let text = Data(bytes)
      let split = text.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
      let header = String(decoding: text[..<split], as: UTF8.self)
      guard let boundary = MultipartForm.boundary(contentType: header) else { return }
      let body = text[min(split + 1, text.endIndex)...]
      if let form = try? MultipartForm(ByteBuffer(bytes: body), boundary: boundary) {
        precondition(!form.parts.isEmpty)
      }
    },
    FuzzTarget(name: "GGUF") { bytes in
      // The reader takes a path, as models are files: each input is written to one scratch file.
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-fuzz-\(getpid()).gguf").path
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
      _ = try? GGUFReader.read(path: path)
    },
  ]
}
