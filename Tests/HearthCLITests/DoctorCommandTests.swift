import Foundation
import HearthTestSupport
import Testing

@Suite("hearth doctor: figures from a scripted session, and none of its words", .heavy)
struct DoctorCommandTests {
  @Test func theReportCountsTheSessionButHoldsNoneOfItsWords() async throws {
    let home = try TestModels.temporaryDirectory()
    let key = "sk-doctor-Vermillion4242"
    let hearth = CommandRunner(environment: [
      "HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2,
      // A remote server on a port nothing listens on: configured, never reachable.
      "HEARTH_REMOTE_URL": "http://127.0.0.1:9/v1", "HEARTH_REMOTE_MODEL": "remote-model", "HEARTH_REMOTE_API_KEY": key,
    ])
    let words = ["Quetzalcoatl", "Marmalade", "Zeppelin", "Okonkwo", "Thistlewaite", "Brigadoon", "Xylophonist"]
    for prompt in [
      "Tell me about Quetzalcoatl and the Marmalade Zeppelin.", "Who is Okonkwo Thistlewaite of Brigadoon?",
    ] {
      let answer = try await hearth.run([
        "ask", prompt, "--provider", "local", "--temperature", "0", "--max-tokens", "12",
      ])
      #expect(answer.status == 0, "\(answer.standardError)")
    }
    let failed = try await hearth.run(["ask", "Xylophonist Brigadoon?", "--provider", "remote", "--max-tokens", "4"])
    #expect(failed.status == 1)
    let sessions = try await hearth.run(["sessions", "list", "--json"])
    let ids = try #require(
      try JSONSerialization.jsonObject(with: Data(sessions.standardOutput.utf8)) as? [[String: Any]]
    ).compactMap { $0["id"] as? String }
    #expect(ids.count == 3)

    let text = try await hearth.run(["doctor"])
    let json = try await hearth.run(["doctor", "--json"])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(json.status == 0, "\(json.standardError)")
    for report in [text.standardOutput, json.standardOutput] {
      for forbidden in words + ids + [key, home.path, "127.0.0.1"] {
        #expect(!report.localizedCaseInsensitiveContains(forbidden), "the report holds \(forbidden)")
      }
    }

    #expect(text.standardOutput.contains("SmolLM2-135M-Instruct.Q4_1.gguf"))
    #expect(text.standardOutput.contains("remote key              set"))
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let performance = try #require(report["performance"] as? [String: Any])
    #expect((performance["generations"] as? Int ?? 0) >= 2)
    #expect(performance["failures"] as? Int == 1)
    #expect((performance["failure_kinds"] as? [String: Int])?["RemoteError.unreachable"] == 1)
    #expect((performance["median_tokens_per_second"] as? Double ?? 0) > 0)
    let loads = try #require(report["loads"] as? [[String: Any]])
    #expect(loads.count == 3)
    #expect(loads.allSatisfy { ($0["duration_ms"] as? Double ?? 0) > 0 && $0["context_size"] as? Int == 4096 })
    let counts = try #require(report["counts"] as? [String: Any])
    #expect(counts["sessions"] as? Int == 3)
    // The remote server's failure is a problem with its repair, in the text and in the JSON.
    #expect(text.standardOutput.contains("Problems, and what to do"), "\(text.standardOutput)")
    let repairs = try #require(report["repairs"] as? [[String: String]])
    #expect(
      repairs.contains { $0["problem"]?.contains("remote server failed 1") == true && $0["steps"] != nil },
      "\(repairs)")
    let provider = try #require(report["provider"] as? [String: Any])
    #expect(provider["remote_key_set"] as? Bool == true)
    #expect(provider["last_provider"] as? String == "local")

    // The llama.cpp build as set-up made it: named instruction sets the CPU has, AMX never among them, and the
    // proof set-up ran on this CPU.
    let native = try #require(report["native"] as? [String: Any])
    let compiled = try #require(native["compiled_features"] as? [String])
    let cpuFeatures = try #require(native["cpu_features"] as? [String])
    #expect(!cpuFeatures.isEmpty)
    #expect(!compiled.isEmpty, "no instruction sets compiled in: \(native)")
    #expect(native["unsupported_features"] as? [String] == [], "\(native)")
    #expect(!compiled.contains("AMX_INT8"))
    #expect(!(native["extra_buffer_types"] as? [String] ?? []).contains("AMX"))
    let proof = try #require(native["proof"] as? [String: Any], "no proof record beside the library")
    #expect(proof["result"] as? String == "passed")
    #expect(text.standardOutput.contains("llama.cpp build"))
    #expect(text.standardOutput.contains("set-up proof            passed"))
  }

  @Test func aSearchIndexThatLostANoteIsRebuiltByTheFullCheckAndTheNoteIsFoundAgain() async throws {
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2])
    for (title, body) in [("Boiler", "The boiler service is due in March"), ("Ferry", "Leaves at 7:40")] {
      let added = try await hearth.run(["notes", "add", title, "--body", body])
      #expect(added.status == 0, "\(added.standardError)")
    }
    // The index told to forget a note the table still holds, as a write past its triggers would.
    let broken = try await CommandRunner.runProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"insert into note_fts(note_fts, rowid, "
          + "title, body) select 'delete', rowid, title, body from note where title='Boiler'\"); c.commit()",
        home.appendingPathComponent("hearth.sqlite").path,
      ])
    #expect(broken.status == 0, "\(broken.standardError)")
    #expect(try await hearth.run(["notes", "search", "boiler"]).standardOutput.contains("Boiler") == false)

    let doctor = try await hearth.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.standardError)")
    #expect(doctor.standardOutput.contains("rebuilt from the data they index (note_fts"), "\(doctor.standardOutput)")
    #expect(doctor.standardOutput.contains("database                ok"), "\(doctor.standardOutput)")
    #expect(try await hearth.run(["notes", "search", "boiler"]).standardOutput.contains("Boiler"))
    let again = try await hearth.run(["doctor", "--json"])
    let storage = try #require(
      (try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any])?["storage"]
        as? [String: Any], "\(again.standardOutput)")
    #expect(storage["search_indexes"] as? String == "ok")
    #expect(storage["rebuilt_indexes"] as? [String] == [])
  }

  @Test func aDatabaseTheFullCheckFindsDamagedIsNotWrittenToNotEvenToRebuildAnIndex() async throws {
    let home = try TestModels.temporaryDirectory()
    let hearth = CommandRunner(environment: ["HEARTH_HOME": home.path, "HEARTH_MODEL": TestModels.smolLM2])
    let added = try await hearth.run(["notes", "add", "Boiler", "--body", "The boiler service is due in March"])
    #expect(added.status == 0, "\(added.standardError)")
    // Damage the quick check at start does not see (an index whose entries do not match its table), and a
    // search index that lost the note, which a sound database would have rebuilt.
    let database = home.appendingPathComponent("hearth.sqlite").path
    let broken = try await CommandRunner.runProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        """
        import sqlite3,sys
        c=sqlite3.connect(sys.argv[1])
        c.execute("create table scratch(a, b)")
        c.executemany("insert into scratch values (?, ?)", [(i, i + 1000) for i in range(50)])
        c.execute("create index scratch_a on scratch(a)")
        c.execute("insert into note_fts(note_fts, rowid, title, body) select 'delete', rowid, title, body from note")
        c.commit()
        c.execute("pragma writable_schema=on")
        c.execute("update sqlite_master set sql='CREATE INDEX scratch_a ON scratch(b)' where name='scratch_a'")
        c.commit()
        c.close()
        c=sqlite3.connect(sys.argv[1])
        assert c.execute("pragma quick_check").fetchall() == [("ok",)]
        assert c.execute("pragma integrity_check").fetchall() != [("ok",)]
        """,
        database,
      ])
    #expect(broken.status == 0, "\(broken.standardError)")

    let doctor = try await hearth.run(["doctor", "--json"])
    let storage = try #require(
      (try JSONSerialization.jsonObject(with: Data(doctor.standardOutput.utf8)) as? [String: Any])?["storage"]
        as? [String: Any], "\(doctor.standardOutput)\n\(doctor.standardError)")
    #expect(storage["integrity"] as? String == "damaged", "\(storage)")
    #expect(storage["rebuilt_indexes"] as? [String] == [], "\(storage)")
    #expect((storage["search_indexes"] as? String ?? "").hasPrefix("not checked"), "\(storage)")
    // The search index still misses the note: nothing was rebuilt in the damaged file.
    let count = try await CommandRunner.runProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from note_fts "
          + "where note_fts match 'boiler'\").fetchone()[0])", database,
      ])
    #expect(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(count)")
  }
}
