/// Follows JSON text a character at a time and tells whether each belongs to a string (its quotes and
/// escapes included), so that brackets inside strings carry no structure.
struct JSONStringTracker: Sendable {
  private var inString = false
  private var escaped = false

  /// Reads `character`; `true` when it is part of a string.
  mutating func isInString(_ character: Character) -> Bool {
    if inString {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        inString = false
      }
      return true
    }
    if character == "\"" {
      inString = true
      return true
    }
    return false
  }
}
