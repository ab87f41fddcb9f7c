import Foundation

/// A request as typed on a phone, with its shorthand written out ("tmrw" → "tomorrow", "wknd" → "weekend",
/// "pw" → "password", "reminde" → "remind"), so every reader after it meets the words it was written for.
/// Only whole words change, and only ones that are never anything else; the user's message is stored as typed.
public enum RequestShorthand {
  /// Each shorthand, lower case, and the words it stands for.
  static let expansions: [String: String] = [
    // Days and times.
    "tmrw": "tomorrow", "tmrow": "tomorrow", "tmr": "tomorrow", "tmoro": "tomorrow", "tmorrow": "tomorrow",
    "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "2mrw": "tomorrow", "tommorow": "tomorrow",
    "tommorrow": "tomorrow", "tomorow": "tomorrow", "tomrrow": "tomorrow", "tomorrw": "tomorrow",
    "tdy": "today", "2day": "today", "tonite": "tonight", "2nite": "tonight", "tonigth": "tonight",
    "yday": "yesterday", "yest": "yesterday", "wknd": "weekend", "wkend": "weekend", "weeknd": "weekend",
    "nxt": "next", "wk": "week", "wks": "weeks", "hrs": "hours", "mins": "minutes",
    "min": "minutes", "secs": "seconds", "b4": "before", "l8r": "later", "aftn": "afternoon",
    "tues": "Tuesday", "weds": "Wednesday", "thurs": "Thursday", "thur": "Thursday", "wensday": "Wednesday",
    "wendsday": "Wednesday", "wednsday": "Wednesday", "wedensday": "Wednesday", "wednesay": "Wednesday",
    "tuseday": "Tuesday", "tusday": "Tuesday", "teusday": "Tuesday", "thrusday": "Thursday", "thursay": "Thursday",
    "thurday": "Thursday", "firday": "Friday", "fridy": "Friday", "saterday": "Saturday", "saturady": "Saturday",
    "satuday": "Saturday", "sundy": "Sunday", "mondy": "Monday", "monady": "Monday", "calender": "calendar",
    // Things.
    "pw": "password", "pwd": "password", "passwd": "password", "wi-fi": "wifi", "appt": "appointment",
    "appts": "appointments", "mtg": "meeting", "mtgs": "meetings", "bday": "birthday",
    "b-day": "birthday", "bdays": "birthdays", "addr": "address", "msg": "message",
    // Verbs and little words.
    "reminde": "remind", "remnd": "remind", "remid": "remind", "rmind": "remind", "remaind": "remind",
    "remine": "remind", "reminer": "reminder", "remider": "reminder", "pls": "please", "plz": "please",
    "plse": "please", "thx": "thanks", "u": "you", "w": "with",
    "ur": "your", "r": "are", "abt": "about", "w/": "with", "w/o": "without", "ppl": "people", "cuz": "because",
    "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "wont": "won't", "didnt": "didn't",
    "doesnt": "doesn't", "isnt": "isn't", "whats": "what's", "wheres": "where's", "whens": "when's",
    "hows": "how's", "whos": "who's", "thats": "that's", "theres": "there's",
  ]

  /// `request` with each shorthand written out; the rest as typed.
  public static func expanded(_ request: String) -> String {
    var result = ""
    var word = ""
    func flush() {
      guard !word.isEmpty else { return }
      // "tmrw." and "tmrw/": the shorthand is the word without what closes it.
      var core = word
      var tail = ""
      while core.count > 1, let last = core.last, ".-/'’".contains(last), expansions[key(core)] == nil {
        tail = String(last) + tail
        core.removeLast()
      }
      // "7ish", "half 7ish": the time, roughly.
      if core.count > 3, key(core).hasSuffix("ish"), core.dropLast(3).allSatisfy({ $0.isNumber || $0 == ":" }) {
        // "3ish" alone is "around 3"; "at 7ish" is "at 7".
        let before = result.lowercased().split(separator: " ").last.map(String.init) ?? ""
        let said = ["at", "around", "about", "by", "from", "till", "until"].contains(before)
        result += (said ? "" : "around ") + String(core.dropLast(3)) + tail
        word = ""
        return
      }
      // "123 w 42nd st": after a house number, "w" is the street's west.
      let afterNumber = result.split(separator: " ").last.map { $0.allSatisfy(\.isNumber) } ?? false
      // A capital "U" or "R" may be a name's initial; only the lower-case letters are words.
      if let long = expansions[key(core)], !(core.count == 1 && core.first?.isUppercase == true),
        !(key(core) == "w" && afterNumber)
      {
        // "Tmrw" at the start of a sentence stays capitalised.
        result += (core.first?.isUppercase == true && long.first?.isLowercase == true ? long.capitalized : long) + tail
      } else {
        result += word
      }
      word = ""
    }
    for character in request {
      if character.isLetter || character.isNumber || "-/.’'".contains(character) && !word.isEmpty {
        word.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return idiomsWrittenOut(result)
  }

  /// Ways of asking for a reminder that say it without the word: "don't let me forget to buy stamps" is
  /// "remind me to buy stamps".
  static let reminderIdioms: [(pattern: String, meaning: String)] = [
    (#"(?i)\b(?:don['’]t|do not) let me forget to\b"#, "remind me to"),
    (#"(?i)\b(?:don['’]t|do not) let me forget (?:about )?"#, "remind me about "),
    (#"(?i)\bmake sure i remember to\b"#, "remind me to"),
  ]

  private static func idiomsWrittenOut(_ text: String) -> String {
    reminderIdioms.reduce(text) { text, idiom in
      text.replacingOccurrences(of: idiom.pattern, with: idiom.meaning, options: .regularExpression)
    }
  }

  private static func key(_ word: String) -> String {
    word.lowercased().replacingOccurrences(of: "’", with: "'")
  }
}
