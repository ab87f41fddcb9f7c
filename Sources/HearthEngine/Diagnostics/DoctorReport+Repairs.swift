import HearthCore

extension DoctorReport {
  /// A problem the report shows, in words, with what the user can do about it.
  public struct Repair: Sendable, Encodable, Hashable {
    /// What is wrong: "The model file is missing".
    public var problem: String
    /// What to do, with the command or page that does it.
    public var steps: String
  }

  /// The problems this report's figures show, each with its repair; empty when all is well. Read from the
  /// figures alone, so it holds no more than they do (no content, paths or names).
  public var diagnosedRepairs: [Repair] {
    var found: [Repair] = []
    if let model {
      found += Self.repairs(of: model, memory: memory)
    } else {
      found.append(
        Repair(
          problem: "No chat model is installed",
          steps:
            "Fetch one on the Models page or with `hearth models pull URL --sha256 HEX` (`make run` fetches the default one)."
        ))
    }
    for check in settings where check.verdict.hasPrefix("invalid") || check.verdict == "differs" {
      found.append(
        Repair(
          problem:
            "The setting \(check.name) was asked as \(check.wanted) but the model got \(check.given ?? "nothing")",
          steps: check.verdict.hasPrefix("invalid")
            ? "Change it on the Settings page (or in the preset): \(check.verdict)."
            : "Reload the model (Models page, or restart `hearth serve`) to apply it; if it stays, the model cannot take that value."
        ))
    }
    if native.proof?.result == "failed" || !native.unsupportedFeatures.isEmpty {
      found.append(
        Repair(
          problem: "The llama.cpp build does not suit this processor",
          steps: "Build it again for this machine with `make setup` (set-up proves each build before use)."))
    }
    found += storageRepairs
    found += accounts.compactMap(Self.repair(of:))
    let remoteFailures = performance.failureKinds.filter { $0.key.hasPrefix("RemoteError") }.values.reduce(0, +)
    if remoteFailures > 0, provider.remoteKind != nil {
      found.append(
        Repair(
          problem: "The remote server failed \(remoteFailures) of the latest answers",
          steps:
            "Check its address and key on the Settings page (or `HEARTH_REMOTE_URL`), or answer here with `--provider local`."
        ))
    }
    if machine.care.isEasing {
      found.append(
        Repair(
          problem: "Hearth is easing off: \(machine.care.reasons.joined(separator: ", "))",
          steps: "Let the machine cool or plug it in; answers run on half the threads until then."))
    }
    return found
  }

  private static func repairs(of model: ModelFacts, memory: MemoryFacts) -> [Repair] {
    var found: [Repair] = []
    if model.status == "missing" {
      found.append(
        Repair(
          problem: "The model file \(model.file) is missing",
          steps:
            "Fetch it again on the Models page (or `hearth models pull URL --sha256 HEX`), or choose another installed model with `hearth models use ID`."
        ))
    } else if model.status.hasPrefix("unusable") {
      found.append(
        Repair(
          problem: "The model file \(model.file) is \(model.status)",
          steps: "Remove it (`hearth models rm ID`) and fetch it again: a pull checks the file against its SHA-256."
        ))
    }
    if let needed = model.estimatedBytes, let budget = memory.budgetBytes, needed > budget {
      found.append(
        Repair(
          problem: "The model needs about \(needed >> 20) MiB at its context but \(budget >> 20) MiB are free for it",
          steps: "Choose a smaller context (Settings) or a smaller model (Models page), or close other programs."))
    }
    return found
  }

  private var storageRepairs: [Repair] {
    var found: [Repair] = []
    if storage.integrity == "damaged" {
      found.append(
        Repair(
          problem: "The database is damaged (\(storage.problems.prefix(3).joined(separator: "; ")))",
          steps: storage.backups > 0
            ? "Stop `hearth serve`, then restore the newest backup (`hearth backup list` names it) with `hearth restore FILE --replace`; the damaged files are kept aside."
            : "Take a backup now (`hearth backup`) to save what can still be read, then ask for help with this report.")
      )
    }
    if storage.backups == 0, !storage.scheduled {
      found.append(
        Repair(
          problem: "There is no backup yet",
          steps:
            "Take one with `hearth backup` or under Backups on the Settings page, and turn on scheduled backups there.")
      )
    }
    return found
  }

  private static func repair(of account: AccountFacts) -> Repair? {
    switch account.state {
    case "password refused":
      Repair(
        problem: "A \(account.service) account's server refused its password",
        steps: "Make a new app password at the provider, then remove the account and add it again (Accounts page).")
    case "server unreachable":
      Repair(
        problem: "A \(account.service) account's server cannot be reached",
        steps: "Check the network and the server's address; its changes wait here and go out at the next sync.")
    case "failing":
      Repair(
        problem: "A \(account.service) account fails to sync",
        steps: "The Accounts page shows the error in words; `hearth accounts sync` tries again now.")
    default: nil
    }
  }
}
