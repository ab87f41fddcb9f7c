import Foundation
import HearthActions
import HearthCore

extension ActionDrafter {
  /// The fields the request settles (as JSON text) and those left out (ids, which a model cannot know;
  /// optional details the request does not mention). `target` is the existing item the request names.
  static func pinned(
    _ spec: ActionSpec, hints: RequestHints, request: String, target: KnownItem?, today: LocalDate
  ) -> (fixed: [String: String], omit: Set<String>) {
    var hints = hints
    var fixed: [String: String] = [:]
    var omit: Set<String> = ["id", "location", "priority", "list", "tags"]
    let day = hints.dates.first
    let start = hints.dateTimes.first
    let lowered = request.lowercased()
    switch (spec.kind, spec.action) {
    case (.calendar, "create"):
      if let start {
        fixed["start"] = json(start.shortDescription)
        let end = hints.dateTimes.dropFirst().first ?? start.adding(seconds: (hints.minutes ?? 60) * 60)
        fixed["end"] = json((end > start ? end : start.adding(seconds: 3600)).shortDescription)
      } else if let day {
        fixed["start"] = json(LocalDateTime(startOf: day).adding(seconds: 9 * 3600).shortDescription)
        fixed["end"] = json(LocalDateTime(startOf: day).adding(seconds: 10 * 3600).shortDescription)
      }
      if let title = hints.title {
        // "Drinks with Tom at the Crown": the place is the event's location, not part of its name.
        let (name, place) = RequestHints.placeOut(of: title)
        fixed["title"] = json(name)
        if let place {
          fixed["location"] = json(place)
          omit.remove("location")
        }
      }
    case (.calendar, "update"):
      omit.formUnion(["start"])
      // A new time said without a day keeps the event's own day: "move the dentist to 4pm".
      var newStart = hints.dateTimes.last
      if let clock = hints.time.clocks.last, !hints.time.namesDay, let day = target?.next?.date {
        newStart = LocalDateTime(date: day, hour: clock.hour, minute: clock.minute)
      } else if hints.time.clocks.isEmpty, let day = hints.dates.last, let old = target?.next {
        // "Move the dentist to Friday": the same time on the new day.
        newStart = LocalDateTime(date: day, hour: old.hour, minute: old.minute)
      }
      // "Push the review back an hour", "bring the dentist forward 30 minutes": a shift from where it is.
      let shift = ["later", "earlier", "forward", "back", " by "].contains(where: lowered.contains)
      if shift, hints.time.clocks.isEmpty, !hints.time.namesDay, let minutes = hints.minutes, let old = target?.next {
        let earlier = ["earlier", "forward", "sooner", "ahead"].contains { lowered.contains($0) }
        newStart = old.adding(seconds: (earlier ? -minutes : minutes) * 60)
        hints.minutes = nil
      }
      if let newStart { fixed["newStart"] = json(newStart.shortDescription) } else { omit.insert("newStart") }
      if let minutes = hints.minutes, let newStart {
        fixed["newEnd"] = json(newStart.adding(seconds: minutes * 60).shortDescription)
      } else {
        omit.insert("newEnd")
      }
      // "Make dinner with Marco end at 10.30pm": the end alone moves, on the event's own day.
      let padded = " " + lowered + " "
      // One time said, and it is the end: "move dinner to 8pm and end at 10pm" moves both.
      if RequestHints.endChanges.contains(where: padded.contains), hints.time.clocks.count == 1,
        let clock = hints.time.clocks.last, let day = hints.time.namesDay ? hints.dates.last : target?.next?.date,
        var end = LocalDateTime(date: day, hour: clock.hour, minute: clock.minute)
      {
        // "Go on until 1am": past midnight, the next day.
        if let start = target?.next, end <= start, !hints.time.namesDay { end = end.adding(seconds: 86_400) }
        fixed["newEnd"] = json(end.shortDescription)
        fixed["newStart"] = nil
        omit.remove("newEnd")
        omit.insert("newStart")
      }
      // "Change the location of the team meeting to Room 7": the place alone changes, and no time is said.
      let words = Set(hints.words.map { $0.lowercased() })
      if !words.isDisjoint(with: ["location", "venue"]), hints.time.clocks.isEmpty, !hints.time.namesDay,
        let range = request.range(of: " to ", options: [.caseInsensitive, .backwards])
      {
        let place = String(request[range.upperBound...]).trimmingCharacters(
          in: .whitespaces.union(.punctuationCharacters))
        if !place.isEmpty {
          fixed["location"] = json(place)
          omit.remove("location")
          omit.formUnion(["newStart", "newEnd"])
        }
      }
      // "Lunch with Priya is at Pret now, not Cafe Nero": a new place stated, no time; a day said is the event's
      // own ("yoga on Saturday is at the community hall now").
      let sameDay = !hints.time.namesDay || (hints.dates.last != nil && hints.dates.last == target?.next?.date)
      if fixed["location"] == nil, hints.time.clocks.isEmpty, sameDay,
        let place = RequestHints.restatedPlace(in: request)
      {
        fixed["location"] = json(place)
        omit.remove("location")
        omit.formUnion(["newStart", "newEnd"])
      }
      if !["rename", "call it", "title"].contains(where: { lowered.contains($0) }) {
        omit.insert("newTitle")
      } else if let range = request.range(of: " to ", options: [.caseInsensitive, .backwards])
        ?? request.range(of: " as ", options: [.caseInsensitive, .backwards])
      {
        // "Rename the team meeting to Weekly sync".
        let name = String(request[range.upperBound...]).trimmingCharacters(
          in: .whitespaces.union(.punctuationCharacters))
        if !name.isEmpty { fixed["newTitle"] = json(name) }
      }
    case (.calendar, "delete"), (.calendar, "reschedule"):
      if let start, target == nil { fixed["start"] = json(start.shortDescription) } else { omit.insert("start") }
      if spec.action == "reschedule" { omit.insert("minutes") }
    case (.calendar, "query"), (.calendar, "free"):
      pinRange(&fixed, &omit, hints: hints, target: spec.action == "query" ? target : nil, today: today)
      if spec.action == "free" { fixed["minutes"] = String(hints.minutes ?? 60) }
    case (.reminder, "create"):
      if let start {
        fixed["due"] = json(start.shortDescription)
      } else if let day {
        fixed["due"] = json(day.description)
      } else {
        omit.insert("due")
      }
      if var title = hints.title {
        // "Add descaling the kettle to my Home list": the list is where it goes, not part of its name.
        let putsItOnAList =
          lowered.range(of: #"(put|add|stick) it (on|to|onto) (my|the) [a-z'-]+ list"#, options: .regularExpression)
          != nil
        if RequestHints.addsToAList(" " + lowered + " ") || putsItOnAList,
          let list = RequestHints.namedList(in: request)
        {
          fixed["list"] = json(list)
          omit.remove("list")
          title = title.replacingOccurrences(
            of: #"(?i)[\s,]+(and )?((put|add|stick) it )?(to|on|onto) (my|the) [a-z'-]+ list\b.*$"#, with: "",
            options: .regularExpression)
          title = title.replacingOccurrences(
            of: #"(?i)[\s,]+(and )?(put|add|stick)( it)?$"#, with: "", options: .regularExpression)
        }
        fixed["title"] = json(title)
      }
      // "A high priority reminder to …", "urgent: …"; not "unimportant", "not urgent".
      let said = hints.words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
      func says(_ word: String) -> Bool {
        said.indices.contains { said[$0] == word && ($0 == 0 || !["not", "isn't", "no"].contains(said[$0 - 1])) }
      }
      // "low-priority" and "low priority" alike.
      let spaced = lowered.replacingOccurrences(of: "-", with: " ")
      let priority =
        spaced.contains("high priority") || says("urgent") || says("important")
        ? "high"
        : spaced.contains("low priority") || spaced.contains("not important") || spaced.contains("not urgent")
          ? "low" : spaced.contains("medium priority") ? "medium" : nil
      if let priority {
        fixed["priority"] = json(priority)
        omit.remove("priority")
      }
    case (.reminder, "list"):
      // "What's in my Home list": that list alone.
      if let list = RequestHints.namedList(in: request) {
        fixed["list"] = json(list)
        omit.remove("list")
      } else {
        omit.insert("list")
      }
      // "What's due today", "which are high priority": those alone.
      let filter = RequestHints.reminderFilter(in: request)
      if let due = filter.due { fixed["due"] = json(due) } else { omit.insert("due") }
      if let priority = filter.priority {
        fixed["priority"] = json(priority)
        omit.remove("priority")
      }
    case (.note, "create"):
      if let named = hints.namedNote {
        fixed["title"] = json(named.title)
        if let body = named.body { fixed["body"] = json(body) }
      } else if let body = hints.noteBody {
        fixed["body"] = json(body)
        fixed["title"] = json(RequestHints.noteTitle(body))
      }
    case (.note, "append"):
      // "Add to the Lisbon trip note: flight lands 09:45": what follows the note's colon, as written.
      let words = request.split(separator: " ")
      if let note = request.range(of: "note:", options: .caseInsensitive)
        ?? request.range(of: "note :", options: .caseInsensitive),
        case let text = request[note.upperBound...].trimmingCharacters(in: .whitespaces), !text.isEmpty
      {
        fixed["text"] = json(text)
      } else if let that = request.range(of: " add that ", options: .caseInsensitive),
        case let text = request[that.upperBound...].trimmingCharacters(in: .whitespaces), !text.isEmpty
      {
        // "Wifi note, add that the guest network is hearth-guest".
        fixed["text"] = json(text.prefix(1).uppercased() + text.dropFirst())
      } else if let verb = words.firstIndex(where: { ["add", "append", "put", "stick"].contains($0.lowercased()) }),
        let to = words.lastIndex(where: { ["to", "on", "onto"].contains($0.lowercased()) }), to > verb + 1
      {
        // "Add eggs to my shopping note": what comes between the verb and "to".
        fixed["text"] = json(words[(verb + 1)..<to].joined(separator: " "))
      }
    case (.note, "update"):
      // "Replace what's in my wifi note with: new password is maple77": the new text, as written.
      let afterNote = request.range(of: "note", options: .caseInsensitive)?.upperBound ?? request.startIndex
      if let with = request.range(of: "with:", options: .caseInsensitive, range: afterNote..<request.endIndex)
        ?? request.range(of: " with ", options: .caseInsensitive, range: afterNote..<request.endIndex),
        case let body = request[with.upperBound...].trimmingCharacters(in: .whitespaces), !body.isEmpty
      {
        fixed["body"] = json(body.prefix(1).uppercased() + body.dropFirst())
      }
    case (.contactsSearch, _):
      if let target { fixed["query"] = json(target.name) }
    case (.note, "search"):
      if let target { fixed["query"] = json(target.name) }
    case (.habit, "create"):
      let weekdays = RequestHints.weekdayNames.filter { lowered.contains($0.key) }.map(\.value).sorted()
      if !weekdays.isEmpty {
        fixed["schedule"] = json(weekdays.map(\.rawValue).joined(separator: ","))
      } else if lowered.contains("every day") || lowered.contains("daily") {
        fixed["schedule"] = json("daily")
      } else {
        omit.insert("schedule")
      }
      if let name = hints.title { fixed["name"] = json(name) }
    case (.habit, "stats"):
      if target == nil { omit.insert("name") }
    default:
      break
    }
    return (fixed, omit)
  }

  /// A question's range: the span the request names, whole days as dates; an item asked about with no time
  /// said is looked for over the coming half year; else the planner's default week from today.
  private static func pinRange(
    _ fixed: inout [String: String], _ omit: inout Set<String>, hints: RequestHints, target: KnownItem?,
    today: LocalDate
  ) {
    if let target {
      fixed["text"] = json(target.name)
    } else {
      omit.insert("text")
    }
    if let span = hints.time.span ?? hints.dates.first.map({ SpokenTime.Span(days: $0, through: $0) }) {
      if span.isWholeDays {
        fixed["from"] = json(span.start.date.description)
        fixed["to"] = json(span.end.date.adding(days: -1).description)
      } else {
        fixed["from"] = json(span.start.shortDescription)
        fixed["to"] = json(span.end.shortDescription)
      }
    } else if target != nil {
      fixed["from"] = json(today.description)
      fixed["to"] = json(today.adding(days: 183).description)
    } else {
      omit.formUnion(["from", "to"])
    }
  }
}
