public import Foundation

extension DecodingFailure {
  /// `failure`, the error of decoding `data` as `Value`, with the field at fault named where Foundation named none.
  ///
  /// Foundation's `JSONDecoder` reports a number that does not fit its field — `-1` or `5000000000` for a
  /// `UInt32`, `1.5` or `1e30` for an `Int` — as "not valid JSON" with no field, though the JSON is valid. The
  /// field is found by putting `0`, which every numeric type takes, in place of the document's numbers one after
  /// another (in a copy) until the error goes: the number whose replacement cured it is one at fault. Only a
  /// refused body pays for this, and the work is bounded (`maxBytes` decoded in all), so a large body cannot turn
  /// a refusal into work.
  public static func located<Value: Decodable>(
    _ failure: any Error, decoding type: Value.Type, from data: Data, with decoder: JSONDecoder,
    maxBytes: Int = 16 << 20
  ) -> any Error {
    guard isUnplaced(failure), let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else { return failure }
    var document = root
    var budget = maxBytes
    for path in numbers(in: root) {
      budget -= data.count
      guard budget >= 0 else { break }
      document = replacing(path, in: document, with: 0)
      guard let bytes = try? JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed]) else {
        break
      }
      do {
        _ = try decoder.decode(Value.self, from: bytes)
      } catch  where isUnplaced(error) {
        continue
      } catch {}
      let number = value(at: path, in: root) as? NSNumber
      let problem =
        number.map {
          $0.doubleValue.rounded() == $0.doubleValue
            ? "the number \($0) is out of this field's range" : "the number \($0) should be a whole number"
        } ?? "the value is not one this field takes"
      return DecodingError.dataCorrupted(.init(codingPath: path.map(\.codingKey), debugDescription: problem))
    }
    return failure
  }

  /// A "not valid JSON" error with no field: what Foundation says for a number that does not fit.
  private static func isUnplaced(_ error: any Error) -> Bool {
    guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
    return context.codingPath.isEmpty && context.debugDescription.hasPrefix("The given data was not valid JSON")
  }

  private enum Step {
    case key(String)
    case index(Int)

    var codingKey: any CodingKey {
      switch self {
      case .key(let name): PathKey(stringValue: name)
      case .index(let index): PathKey(intValue: index)
      }
    }
  }

  private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { (self.stringValue, self.intValue) = (stringValue, nil) }
    init(intValue: Int) { (self.stringValue, self.intValue) = ("\(intValue)", intValue) }
  }

  /// The paths of the document's numbers (not its `true` and `false`), in the order of its keys and elements.
  private static func numbers(in document: Any, under path: [Step] = []) -> [[Step]] {
    switch document {
    case let object as [String: Any]:
      object.keys.sorted().flatMap { numbers(in: object[$0]!, under: path + [.key($0)]) }
    case let array as [Any]:
      array.indices.flatMap { numbers(in: array[$0], under: path + [.index($0)]) }
    // A JSON `true` or `false` is an NSNumber too, of the C type `char`.
    case let number as NSNumber where String(cString: number.objCType) != "c":
      [path]
    default:
      []
    }
  }

  private static func value(at path: [Step], in document: Any) -> Any? {
    var current: Any? = document
    for step in path {
      switch (step, current) {
      case (.key(let name), let object as [String: Any]): current = object[name]
      case (.index(let index), let array as [Any]) where array.indices.contains(index): current = array[index]
      default: return nil
      }
    }
    return current
  }

  private static func replacing(_ path: [Step], in document: Any, with replacement: Any) -> Any {
    guard let first = path.first else { return replacement }
    let rest = Array(path.dropFirst())
    switch (first, document) {
    case (.key(let name), var object as [String: Any]):
      if let inner = object[name] { object[name] = replacing(rest, in: inner, with: replacement) }
      return object
    case (.index(let index), var array as [Any]) where array.indices.contains(index):
      array[index] = replacing(rest, in: array[index], with: replacement)
      return array
    default:
      return document
    }
  }
}
