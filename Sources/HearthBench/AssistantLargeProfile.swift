import HearthCore
public import HearthEngine

extension AssistantProfile {
  /// How big the large profile is: the size of a real life rather than a demo.
  public enum LargeSize {
    public static let events = 400
    public static let contacts = 200
    public static let notes = 120
  }

  /// Fills an empty profile with the small profile's records and, around them, enough others to be a real
  /// life's size: 400 more events over four months, 200 more contacts and 120 more notes. The extra records are
  /// made the same way every time, with names and titles that none of the small profile's records share, and
  /// no extra event falls in the fortnight the cases ask about (23 November to 13 December), so a case's facts
  /// hold on both profiles while every lookup has to find them among many.
  public static func seedLarge(_ engine: Engine) throws {
    try seed(engine)
    var random = FillerSequence(seed: 0x4845_4152_5448)
    let activities = [
      "Budget review", "Piano lesson", "Book club", "Standup", "Physio", "Swimming", "Parents evening",
      "Car service", "Quarterly planning", "Pottery class", "Climbing", "Choir practice", "Vet appointment",
      "Project kickoff", "Design critique", "Language exchange", "Volunteering", "Chess club",
    ]
    let places = ["Library", "Office", "Community hall", "Studio 2", "Leisure centre", nil, nil]
    let first = LocalDate(year: 2026, month: 10, day: 1)!
    let quiet = LocalDate(year: 2026, month: 11, day: 23)!...LocalDate(year: 2026, month: 12, day: 13)!
    var made = 0
    while made < LargeSize.events {
      let day = first.adding(days: random.next(below: 123))
      if quiet.contains(day) { continue }
      let start = LocalDateTime(startOf: day).adding(seconds: (7 + random.next(below: 13)) * 3600)
      let minutes = [30, 45, 60, 90][random.next(below: 4)]
      _ = try engine.calendar.create(
        CalendarEvent(
          title: activities[random.next(below: activities.count)], start: start,
          end: start.adding(seconds: minutes * 60), location: places[random.next(below: places.count)],
          calendar: random.next(below: 3) == 0 ? "Work" : CalendarEvent.defaultCalendar))
      made += 1
    }
    let given = [
      "Oliver", "Chloe", "Hugo", "Ines", "Tomas", "Freya", "Kenji", "Leila", "Mateo", "Nora", "Oskar", "Ruth",
      "Soren", "Talia", "Viktor", "Wren", "Yusuf", "Zara", "Bruno", "Clara",
    ]
    let family = ["Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Gallo", "Haas", "Ito", "Jansen", "Klein"]
    let organizations = ["Harbour Studio", "Greenleaf Ltd", "Bluebell School", "Kestrel Partners", nil, nil]
    for index in 0..<LargeSize.contacts {
      let name = "\(given[index % given.count]) \(family[(index / given.count) % family.count])"
      let digits = String(1000 + index)
      _ = try engine.contacts.create(
        Contact(
          fullName: name, phones: [LabeledValue("+49 151 5550 \(digits)", label: "cell")],
          emails: [LabeledValue("contact\(index)@example.net", label: "home")],
          organization: organizations[index % organizations.count]))
    }
    let topics = [
      "Garden ideas", "Meeting minutes", "Recipe", "Podcast list", "Gift ideas", "Bike repair", "Reading list",
      "Tax documents", "Holiday photos", "Course notes",
    ]
    for index in 0..<LargeSize.notes {
      let topic = topics[index % topics.count]
      _ = try engine.notes.create(
        Note(
          title: "\(topic) \(index / topics.count + 1)",
          body: "Item \(index): \(topic.lowercased()), part \(random.next(below: 50) + 1)."))
    }
  }
}

/// A small deterministic sequence (SplitMix64), so the large profile is the same on every machine and run.
struct FillerSequence {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    value ^= value >> 31
    return Int(value % UInt64(bound))
  }
}
