import Foundation
import HearthCore

extension DoctorReport {
  private var nativeRows: [(String, String?)] {
    let proofText = native.proof.map { proof in
      [proof.result, proof.features.isEmpty ? nil : "for \(proof.features)", proof.date.map { "on \($0)" }]
        .compactMap { $0 }.joined(separator: " ")
    }
    return [
      ("cpu model", native.cpuModel),
      ("cpu instruction sets", native.cpuFeatures.isEmpty ? "not reported" : native.cpuFeatures.joined(separator: " ")),
      (
        "compiled for",
        native.compiledFeatures.isEmpty ? "no extra instruction sets" : native.compiledFeatures.joined(separator: " ")
      ),
      ("options", native.options.isEmpty ? nil : native.options.joined(separator: " ")),
      (
        "weight layouts in use",
        native.extraBufferTypes.isEmpty ? "plain" : native.extraBufferTypes.joined(separator: " ")
      ),
      (
        "unsupported by this cpu",
        native.unsupportedFeatures.isEmpty
          ? "none" : native.unsupportedFeatures.joined(separator: " ") + " (would crash: rebuild with make setup)"
      ),
      ("set-up proof", proofText ?? "no record (not built by Hearth's set-up)"),
      ("proof notes", native.proof?.detail),
      (
        "gpu backends",
        native.gpuBackends.isEmpty ? "none (built for the CPU only)" : native.gpuBackends.joined(separator: " ")
      ),
      ("gpu set-up", gpuSetUpText),
      ("gpu devices", gpuDevicesText),
    ]
  }

  private var gpuSetUpText: String? {
    guard let proof = native.proof, let backend = proof.gpuBackend else { return nil }
    return [backend, proof.gpuResult.map { "proof \($0)" }, proof.gpuReason].compactMap { $0 }.joined(separator: "; ")
  }

  private var gpuDevicesText: String {
    guard !native.gpuDevices.isEmpty else {
      return native.gpuBackends.isEmpty
        ? "none" : "none (a CPU Vulkan driver such as lavapipe is used only when GGML_VK_VISIBLE_DEVICES names it)"
    }
    return native.gpuDevices.map {
      "\($0.name) \($0.description), \($0.freeBytes >> 20) of \($0.totalBytes >> 20) MiB free"
    }.joined(separator: "; ")
  }

  /// The report as plain text to paste into a bug report: one section per heading, aligned columns.
  public var text: String {
    var lines = ["Hearth \(version) — doctor"]
    func section(_ title: String, _ rows: [(String, String?)]) {
      lines.append("")
      lines.append(title)
      for (name, value) in rows {
        guard let value else { continue }
        lines.append("  " + name.padding(toLength: 24, withPad: " ", startingAt: 0) + value)
      }
    }
    if !repairs.isEmpty {
      lines.append("")
      lines.append("Problems, and what to do")
      for repair in repairs { lines += ["  - \(repair.problem)", "    \(repair.steps)"] }
    }
    section(
      "Provider",
      [
        ("preference", provider.preference),
        ("remote", provider.remoteKind.map { "\($0), model \(provider.remoteModel ?? "-")" } ?? "not configured"),
        ("remote key", provider.remoteKind == nil ? nil : provider.remoteKeySet ? "set" : "not set"),
        ("last answered by", provider.lastProvider ?? "no answer on record"),
      ])
    if let model {
      section(
        "Model",
        [
          ("id", model.id), ("name", model.displayName), ("file", model.file),
          ("size", model.sizeBytes.map(Self.bytes)), ("status", model.status), ("architecture", model.architecture),
          ("parameters", model.parameterCount.map { String(format: "%.1f M", Double($0) / 1e6) }),
          ("loaded", model.loaded ? "yes" : "no"), ("context", model.contextSize.map { "\($0) tokens" }),
          ("chat template", model.chatTemplate ?? "the model's own"),
          ("estimated memory", model.estimatedBytes.map(Self.bytes)),
          ("gpu layers", model.gpuLayers), ("offload", model.offload),
        ])
    } else {
      section("Model", [("chosen", "none installed")])
    }
    section("Settings", settings.map { ($0.name, Self.describe($0)) })
    section(
      "Memory",
      [
        ("physical", Self.bytes(memory.physicalBytes)),
        ("available", "\(Self.bytes(memory.availableBytes)) (\(memory.availableSource))"),
        ("a load may take", memory.budgetBytes.map(Self.bytes) ?? "HEARTH_MEMORY_LIMIT is not a size"),
        ("this process now", memory.processResidentBytes.map(Self.bytes)),
        ("this process at peak", memory.processPeakBytes.map(Self.bytes)),
      ])
    section(
      "Machine",
      [
        ("processors", "\(machine.processors)"), ("system", machine.operatingSystem), ("cpu", machine.architecture),
        ("temperature", Self.temperature(machine.care.readings)), ("power", Self.power(machine.care.readings)),
        (
          "care",
          machine.care.isEasing
            ? "easing off (\(machine.care.reasons.joined(separator: "; "))): local models use half their threads, "
              + "automations wait" : "at ease"
        ),
      ])
    section("llama.cpp build", nativeRows)
    section(
      "Loads (latest last)",
      loads.isEmpty
        ? [("none on record", "")]
        : loads.enumerated().map { index, load in
          (
            "\(index + 1).",
            [
              load.model, load.durationMs.map { Self.milliseconds($0) }, load.contextSize.map { "context \($0)" },
              load.threads.map { "\($0) threads" }, load.peakResidentBytes.map { "peak \(Self.bytes($0))" },
              load.offload,
            ].compactMap { $0 }.joined(separator: ", ")
          )
        })
    let attempts = performance.generations + performance.failures
    section(
      "Recent performance",
      [
        ("generations", "\(performance.generations)"),
        (
          "failures",
          "\(performance.failures) (\(String(format: "%.1f", performance.failureRate * 100)) % of \(attempts))"
        ),
        (
          "failure kinds",
          performance.failureKinds.isEmpty
            ? nil
            : performance.failureKinds.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(
              separator: ", ")
        ),
        ("first token (median)", performance.medianFirstTokenMs.map(Self.milliseconds)),
        ("generation (median)", performance.medianTokensPerSecond.map { String(format: "%.1f tokens/s", $0) }),
        ("prompt (median)", performance.medianPrefillTokensPerSecond.map { String(format: "%.1f tokens/s", $0) }),
        ("latest speeds", performance.recent.isEmpty ? nil : Self.sparkline(performance.recent.map(\.tokensPerSecond))),
      ])
    section(
      "Counts",
      [
        ("sessions", "\(counts.sessions)"), ("messages", "\(counts.messages)"),
        ("database", Self.bytes(counts.databaseBytes)), ("installed models", "\(counts.installedModels)"),
        ("telemetry records", "\(counts.telemetryRecords)"),
      ])
    let newest = storage.latestBackup.map { ISO8601DateFormatter().string(from: $0) }
    section(
      "Storage",
      [
        (
          "database",
          storage.integrity == "damaged"
            ? "DAMAGED: \(storage.problems.prefix(3).joined(separator: "; "))"
              + " (restore the newest backup: hearth backup list, then hearth restore --replace FILE)"
            : storage.integrity
        ),
        (
          "search indexes",
          storage.rebuiltIndexes.isEmpty
            ? storage.searchIndexes
            : "rebuilt from the data they index (\(storage.rebuiltIndexes.joined(separator: ", ")) did not match it)"
        ),
        ("backups", "\(storage.backups)" + (newest.map { ", the newest taken \($0)" } ?? "")),
        ("scheduled backups", storage.scheduled ? "on" : "off"),
      ])
    if !accounts.isEmpty {
      section(
        "Accounts",
        accounts.enumerated().map { index, account in
          let when = account.lastSync.map { ", last sync \(ISO8601DateFormatter().string(from: $0))" } ?? ""
          let next =
            switch account.schedule {
            case "scheduled": account.nextSync.map { ", next sync \(ISO8601DateFormatter().string(from: $0))" } ?? ""
            case "syncing": ", syncing now"
            default: ", no sync scheduled (hearth serve is not running)"
            }
          return (
            "\(index + 1). \(account.service)",
            "\(account.state)\(when)\(next); \(account.collections) collections, \(account.syncedItems) items, "
              + "\(account.waiting) local changes waiting"
          )
        })
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func describe(_ check: SettingCheck) -> String {
    switch check.verdict {
    case "ok": "\(check.wanted) — ok"
    case "not loaded yet": "\(check.wanted) — not loaded yet"
    default: "\(check.wanted) wanted, \(check.given ?? "nothing") given — \(check.verdict)"
    }
  }

  /// The hottest zone, or why there is none.
  static func temperature(_ readings: MachineReadings) -> String {
    guard let hottest = readings.hottest else { return "no thermal sensor readable" }
    return "\(Int(hottest.celsius.rounded())) °C (\(hottest.type), the hottest of \(readings.thermals.count))"
  }

  static func power(_ readings: MachineReadings) -> String {
    guard let power = readings.power else { return "no power supply readable" }
    let charge = power.batteryPercent.map { " at \($0) %" } ?? ""
    return power.onBattery
      ? "on battery\(charge)" : "on mains" + (power.batteryPercent == nil ? "" : " (battery\(charge))")
  }

  static func bytes(_ count: UInt64) -> String {
    let mib = Double(count) / 1_048_576
    return mib >= 1024 ? String(format: "%.1f GiB", mib / 1024) : String(format: "%.1f MiB", mib)
  }

  static func milliseconds(_ value: Double) -> String {
    value >= 1000 ? String(format: "%.2f s", value / 1000) : String(format: "%.0f ms", value)
  }

  /// Speeds as a row of block characters, lowest to highest; a gap for a generation without a speed.
  static func sparkline(_ values: [Double?]) -> String {
    let blocks = Array("▁▂▃▄▅▆▇█")
    let known = values.compactMap { $0 }
    guard let low = known.min(), let high = known.max() else { return "" }
    let span = high - low
    let line = values.map { value -> Character in
      guard let value else { return " " }
      return span > 0 ? blocks[Int(((value - low) / span * Double(blocks.count - 1)).rounded())] : blocks[3]
    }
    return String(line) + String(format: "  (%.1f–%.1f tokens/s)", low, high)
  }
}
