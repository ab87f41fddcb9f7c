/// Fixed, wordy questions for the chat benchmark, so that ten turns build a history of well over 1,500
/// tokens.
enum ChatScript {
  private static let topics = [
    "the history of lighthouses along the Atlantic coast and how their keepers lived through long winters",
    "how sourdough bread rises, what the starter contains and why the kitchen temperature matters so much",
    "the way migratory birds find their route across continents using the sun, stars and magnetic fields",
    "planning a vegetable garden on a small balcony with containers, sunlight limits and watering schedules",
    "how public libraries changed over the last century, from card catalogues to digital lending services",
    "the basics of personal budgeting with monthly categories, an emergency fund and paying off debts early",
    "what makes a good night's sleep, including light, caffeine, routines and the temperature of the room",
    "how mountain railways were engineered to climb steep slopes with rack systems, tunnels and switchbacks",
    "the science of tides, the pull of the moon and the sun, and why some bays have enormous tidal ranges",
    "how to prepare for a long hike, with layers of clothing, maps, water, food and telling someone the plan",
    "the way bees communicate through dances about where flowers are and how far away the nectar can be found",
    "how old sailing ships navigated with a compass, a sextant, a chronometer and careful dead reckoning",
  ]

  static func questions(count: Int) -> [String] {
    (0..<count).map { index in
      let topic = topics[index % topics.count]
      return "Question \(index + 1): please explain \(topic). Keep the explanation friendly and practical, "
        + "mention one surprising fact, and finish with a short tip I could use this week."
    }
  }
}
