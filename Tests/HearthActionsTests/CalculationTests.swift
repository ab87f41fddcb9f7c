import HearthActions
import Testing

@Suite("Sums and conversions asked in words are worked out by code")
struct CalculationTests {
  @Test(arguments: [
    ("what's 17 times 23", "17 × 23 = 391."),
    ("whats 12 x 12?", "12 × 12 = 144."),
    ("What is 100 - 37 + 5?", "100 − 37 + 5 = 68."),
    ("calculate 2 + 3 * 4", "2 + 3 × 4 = 14."),
    ("144 divided by 12", "144 ÷ 12 = 12."),
    ("what is 7 / 2", "7 ÷ 2 = 3.5."),
    ("what's twenty one plus four", "21 + 4 = 25."),
    ("what's the square root of 144", "The square root of 144 is 12."),
    ("12 squared", "12 squared is 144."),
    ("2 to the power of 10", "2 to the power of 10 is 1024."),
    ("what's 15% of 80", "15 % of 80 is 12."),
    ("15 percent of 80?", "15 % of 80 is 12."),
    ("convert 100 fahrenheit to celsius", "100 °F is 37.8 °C."),
    ("what is 20 degrees celsius in fahrenheit", "20 °C is 68 °F."),
    ("5 km in miles", "5 km is 3.11 miles."),
    ("how many minutes in three and a half hours", "3.5 hours is 210 minutes."),
    ("how many seconds are there in an hour", "1 hour is 3600 seconds."),
    ("10 stone in kg please", "10 stone is 63.5 kg."),
    ("what's 5 divided by 0", "Dividing by zero has no answer."),
  ])
  func isWorkedOut(request: String, answer: String) {
    #expect(Calculation(request)?.answer == answer, "\(request)")
  }

  @Test(arguments: [
    "add 3 things to my list", "what's on at 3", "remind me in 2 hours", "what is 2 days from now",
    "how many days are there in a leap year", "lunch with ben tomorrow at 1 for an hour", "what's 5", "10 km",
    "what's the boiling point of water in fahrenheit", "move the dentist to 3 x", "call mum at 5 and 6",
    "1e308 times 10",
  ])
  func isNoSum(request: String) {
    #expect(Calculation(request) == nil, "\(request)")
  }
}

@Suite("Shorthand typed on a phone is written out before the readers meet it")
struct RequestShorthandTests {
  @Test(arguments: [
    ("whats on tmrw", "what's on tomorrow"),
    ("plans for the wknd?", "plans for the weekend?"),
    ("wi-fi pw?", "wifi password?"),
    ("Reminde me to water the plants tmrw.", "Remind me to water the plants tomorrow."),
    ("Tmrw dentist appt at 3", "Tomorrow dentist appointment at 3"),
    ("im not going", "I'm not going"),
    ("lunch w/ ben", "lunch with ben"),
    ("coffee 3ish tmrw", "coffee around 3 tomorrow"),
    ("drinks at 7ish", "drinks at 7"),
  ])
  func isWrittenOut(typed: String, expanded: String) {
    #expect(RequestShorthand.expanded(typed) == expanded)
  }

  @Test(arguments: [
    "I feel ill", "Christmas eve dinner", "call HR", "meet Cal at 3", "3/12 at 10:30", "no. 5 bus", "call Ty",
    "flights to Tel Aviv", "ask U about it",
  ])
  func leavesWordsThatAreAlsoWords(typed: String) {
    #expect(RequestShorthand.expanded(typed) == typed)
  }
}
