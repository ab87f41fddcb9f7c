import Foundation

extension Calculation {
  // MARK: Sums

  /// "17 times 23", "12 x 12", "100 - 37 + 5", "144 divided by 12": times and division before plus and minus.
  static func arithmetic(_ words: [String]) -> String? {
    var words = words
    if words.last == "equals" || words.last == "equal" { words.removeLast() }
    guard let first = number(words, at: 0) else { return nil }
    var values = [first.value]
    var operators: [String] = []
    var index = first.count
    var shown = [written(first.value)]
    while index < words.count {
      guard let (sign, length) = operation(words, at: index), let next = number(words, at: index + length) else {
        return nil
      }
      operators.append(sign)
      values.append(next.value)
      shown += [sign, written(next.value)]
      index += length + next.count
    }
    guard !operators.isEmpty else { return nil }
    // Times and division first, then plus and minus, left to right.
    var terms = [values[0]]
    var signs: [String] = []
    for (sign, value) in zip(operators, values.dropFirst()) {
      switch sign {
      case "×": terms[terms.count - 1] *= value
      case "÷":
        guard value != 0 else { return "Dividing by zero has no answer." }
        terms[terms.count - 1] /= value
      default:
        terms.append(value)
        signs.append(sign)
      }
    }
    var result = terms[0]
    for (sign, value) in zip(signs, terms.dropFirst()) { result += sign == "+" ? value : -value }
    guard result.isFinite else { return nil }
    return "\(shown.joined(separator: " ")) = \(written(result))."
  }

  /// The operation named at `index` (as its sign) and how many words it took.
  private static func operation(_ words: [String], at index: Int) -> (String, Int)? {
    let two = index + 1 < words.count ? words[index] + " " + words[index + 1] : ""
    if ["multiplied by", "divided by", "take away"].contains(two) {
      return (two == "multiplied by" ? "×" : two == "divided by" ? "÷" : "−", 2)
    }
    switch words[index] {
    case "+", "plus", "and": return ("+", 1)
    case "-", "minus", "less": return ("−", 1)
    case "*", "×", "x", "times": return ("×", 1)
    case "÷", "over": return ("÷", 1)
    default: return nil
    }
  }

  // MARK: Roots, powers and percentages

  /// "square root of 144", "12 squared", "2 to the power of 10", "15% of 80".
  static func function(_ words: [String]) -> String? {
    var words = words
    if words.first == "the" { words.removeFirst() }
    if words.starts(with: ["square", "root", "of"]) || words.first == "sqrt" {
      let start = words.first == "sqrt" ? (words.count > 1 && words[1] == "of" ? 2 : 1) : 3
      guard let value = number(words, at: start), start + value.count == words.count, value.value >= 0 else {
        return nil
      }
      return "The square root of \(written(value.value)) is \(written(value.value.squareRoot()))."
    }
    guard let base = number(words, at: 0) else { return nil }
    let rest = Array(words[base.count...])
    if rest == ["squared"] { return "\(written(base.value)) squared is \(written(base.value * base.value))." }
    if rest == ["cubed"] { return "\(written(base.value)) cubed is \(written(pow(base.value, 3)))." }
    for opening in [["to", "the", "power", "of"], ["^"], ["to", "the", "power"]] where rest.starts(with: opening) {
      guard let power = number(rest, at: opening.count), opening.count + power.count == rest.count else { return nil }
      let result = pow(base.value, power.value)
      guard result.isFinite else { return nil }
      return "\(written(base.value)) to the power of \(written(power.value)) is \(written(result))."
    }
    for opening in [["%", "of"], ["percent", "of"], ["per", "cent", "of"]] where rest.starts(with: opening) {
      guard let whole = number(rest, at: opening.count), opening.count + whole.count == rest.count else { return nil }
      return "\(written(base.value)) % of \(written(whole.value)) is \(written(base.value * whole.value / 100))."
    }
    return nil
  }

  // MARK: Conversions

  /// A unit of one measure and how many of the measure's base unit it is.
  struct Unit {
    var measure: String
    var factor: Double
    var name: String
  }

  static let unitNames: [String: Unit] = {
    var table: [String: Unit] = [:]
    func add(_ measure: String, _ factor: Double, _ name: String, _ spellings: [String]) {
      for spelling in spellings { table[spelling] = Unit(measure: measure, factor: factor, name: name) }
    }
    add("time", 1, "seconds", ["second", "seconds", "secs", "sec"])
    add("time", 60, "minutes", ["minute", "minutes", "mins", "min"])
    add("time", 3600, "hours", ["hour", "hours", "hrs", "hr"])
    add("time", 86_400, "days", ["day", "days"])
    add("time", 604_800, "weeks", ["week", "weeks"])
    add("length", 0.001, "mm", ["mm", "millimetre", "millimetres", "millimeter", "millimeters"])
    add("length", 0.01, "cm", ["cm", "centimetre", "centimetres", "centimeter", "centimeters"])
    add("length", 1, "m", ["m", "metre", "metres", "meter", "meters"])
    add("length", 1000, "km", ["km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"])
    add("length", 0.0254, "inches", ["inch", "inches"])
    add("length", 0.3048, "feet", ["foot", "feet", "ft"])
    add("length", 0.9144, "yards", ["yard", "yards"])
    add("length", 1609.344, "miles", ["mile", "miles"])
    add("mass", 0.001, "g", ["g", "gram", "grams"])
    add("mass", 1, "kg", ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"])
    add("mass", 0.45359237, "pounds", ["lb", "lbs", "pound", "pounds"])
    add("mass", 0.028349523125, "ounces", ["oz", "ounce", "ounces"])
    add("mass", 6.35029318, "stone", ["stone", "stones"])
    return table
  }()

  /// "100 fahrenheit to celsius", "5 km in miles", "how many minutes in three and a half hours".
  static func conversion(_ words: [String]) -> String? {
    var words = words.filter { $0 != "degrees" && $0 != "degree" }
    // "how many minutes (are there) in N hours" → "N hours in minutes".
    if words.starts(with: ["how", "many"]), words.count > 3 {
      let target = words[2]
      var rest = Array(words[3...])
      for filler in [["are", "there", "in"], ["are", "in"], ["is", "in"], ["in"], ["in", "a"], ["per"]]
      where rest.starts(with: filler) {
        rest.removeFirst(filler.count)
        break
      }
      if rest.first == "a" || rest.first == "an", rest.count == 2 { rest[0] = "1" }
      words = rest + ["in", target]
    }
    guard let amount = number(words, at: 0) else { return nil }
    let rest = Array(words[amount.count...])
    // The unit from, the joining word, the unit to (each one word, or "°f" style).
    guard let join = rest.firstIndex(where: { ["to", "in", "into", "as"].contains($0) }), join >= 1,
      join + 1 < rest.count
    else { return nil }
    let from = rest[..<join].joined(separator: " ")
    let to = rest[(join + 1)...].joined(separator: " ")
    if let temperature = temperature(amount.value, from: from, to: to) { return temperature }
    guard let source = unitNames[from], let target = unitNames[to], source.measure == target.measure else {
      return nil
    }
    let result = amount.value * source.factor / target.factor
    guard result.isFinite else { return nil }
    return "\(written(amount.value)) \(amount.value == 1 ? singular(source.name) : source.name) is "
      + "\(written(result)) \(result == 1 ? singular(target.name) : target.name)."
  }

  private static func singular(_ name: String) -> String {
    switch name {
    case "feet": "foot"
    case "inches": "inch"
    case "stone", "mm", "cm", "m", "km", "g", "kg": name
    default: name.hasSuffix("s") ? String(name.dropLast()) : name
    }
  }

  private static func temperature(_ value: Double, from: String, to: String) -> String? {
    let scales: [String: String] = [
      "fahrenheit": "°F", "f": "°F", "°f": "°F", "celsius": "°C", "c": "°C", "°c": "°C", "centigrade": "°C",
      "kelvin": "K", "k": "K",
    ]
    guard let source = scales[from], let target = scales[to], source != target else { return nil }
    let celsius =
      switch source {
      case "°F": (value - 32) * 5 / 9
      case "K": value - 273.15
      default: value
      }
    let result =
      switch target {
      case "°F": celsius * 9 / 5 + 32
      case "K": celsius + 273.15
      default: celsius
      }
    return
      "\(written(value)) \(source) is \(String(format: "%.1f", result).replacingOccurrences(of: ".0", with: "")) \(target)."
  }
}
