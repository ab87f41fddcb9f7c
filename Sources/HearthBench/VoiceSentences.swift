/// The fixed sentences the voice is measured on: spoken by Hearth's voice, heard by Hearth's recognizer.
///
/// Written as an assistant answers, in words (Whisper writes numbers as digits, which a word count would score as
/// errors that no listener hears).
public enum VoiceSentences {
  /// Twenty sentences for the round trip.
  public static let roundTrip = [
    "Your next meeting is with the design team this afternoon.",
    "I added milk, bread and coffee to your shopping list.",
    "The dentist appointment moved to Thursday morning.",
    "You have no reminders due today.",
    "It will be cloudy in the morning and sunny after lunch.",
    "I found two notes about the garden project.",
    "Your sister asked you to call her back this evening.",
    "The train to the coast leaves early tomorrow.",
    "You walked more this week than last week.",
    "Should I move the review to Friday afternoon?",
    "I deleted the event called team lunch.",
    "Remember to water the plants in the kitchen.",
    "Your calendar is free on Saturday.",
    "The concert tickets are in your email.",
    "I could not find a contact named Peter.",
    "Here is a short summary of your day.",
    "The budget review is the most important task today.",
    "You asked me to remind you about the library books.",
    "Good morning, you slept well last night.",
    "I will read the rest of the message aloud.",
  ]

  /// A twenty-word answer, the length the time to first audio is measured on.
  public static let answer =
    "Your dentist appointment is on Thursday morning. After that, you planned to review the garden budget with your older sister."
}
