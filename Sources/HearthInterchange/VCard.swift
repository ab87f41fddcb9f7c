public import Foundation
public import HearthCore

/// vCard files (3.0, RFC 2426, and 4.0, RFC 6350): contacts, both ways.
public enum VCard {
  /// The vCard version written by ``write(_:version:)``.
  public enum Version: String, Sendable, CaseIterable {
    case v3 = "3.0"
    case v4 = "4.0"
  }

  /// Properties that describe the card file rather than the person.
  static let fileProperties: Set<String> = ["VERSION", "PRODID", "KIND"]
  /// Type words that say nothing a person would use as a label.
  static let noiseTypes: Set<String> = ["voice", "pref", "internet", "x400"]

  /// Reads every card in a file. A broken card is skipped and reported with its line.
  public static func read(_ data: Data) throws(InterchangeError) -> ParsedFile<Contact> {
    let text = try InterchangeLimits.text(of: data, format: "vCard")
    let lines = ContentLines.parse(text)
    guard let first = lines.first, first.name.hasSuffix("BEGIN"), first.value.uppercased() == "VCARD" else {
      throw .wrongFormat(expected: "a vCard file (BEGIN:VCARD)", found: String(text.prefix(40)))
    }
    var parsed = ParsedFile<Contact>()
    var body: [ContentLine] = []
    var begin: ContentLine?
    for line in lines {
      let name = ungrouped(line.name)
      if name == "BEGIN", line.value.uppercased() == "VCARD" {
        if let begin {
          parsed.skipped.append(
            SkippedItem(line: begin.line, item: nil, reason: "the card is not closed (END:VCARD missing)"))
        }
        begin = line
        body = []
      } else if name == "END", line.value.uppercased() == "VCARD", let opened = begin {
        do {
          parsed.items.append(
            (try contact(from: body, line: opened.line, dropped: &parsed.droppedProperties), opened.line))
        } catch {
          let item = body.first { ungrouped($0.name) == "FN" }?.text
          parsed.skipped.append(SkippedItem(line: error.line, item: item, reason: error.reason))
        }
        begin = nil
      } else if begin != nil {
        body.append(line)
      } else {
        parsed.skipped.append(
          SkippedItem(line: line.line, item: nil, reason: "outside any card: \(line.unfolded.prefix(40))"))
      }
    }
    if let begin {
      parsed.skipped.append(
        SkippedItem(line: begin.line, item: nil, reason: "the card is not closed (END:VCARD missing)"))
    }
    return parsed
  }

  /// `item1.TEL` → `TEL`: Apple's property groups.
  static func ungrouped(_ name: String) -> String {
    name.firstIndex(of: ".").map { String(name[name.index(after: $0)...]) } ?? name
  }

  static func contact(from body: [ContentLine], line: Int, dropped: inout [String: Int]) throws(ItemProblem) -> Contact
  {
    let now = InterchangeLimits.wholeSecondNow()
    var contact = Contact(id: "", fullName: "", createdAt: now)
    for property in body {
      let name = ungrouped(property.name)
      switch name {
      case "VERSION":
        guard ["3.0", "4.0"].contains(property.value.trimmingCharacters(in: .whitespaces)) else {
          throw ItemProblem(property.line, "vCard \(property.value) is not supported (3.0 and 4.0 are)")
        }
      case "UID": contact.id = property.text
      case "FN": contact.fullName = property.text
      case "N":
        let parts = property.components(separatedBy: ";")
        contact.familyName = parts.first.flatMap { $0.isEmpty ? nil : $0 }
        contact.givenName = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
      case "TEL":
        var value = property.text
        if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
        contact.phones.append(LabeledValue(value, label: label(property)))
      case "EMAIL":
        var value = property.text
        if value.lowercased().hasPrefix("mailto:") { value = String(value.dropFirst(7)) }
        contact.emails.append(LabeledValue(value, label: label(property)))
      case "BDAY":
        guard let birthday = Birthday(parsing: property.value) else {
          throw ItemProblem(property.line, "BDAY \(property.value) is not a date")
        }
        contact.birthday = birthday
      case "ORG":
        let units = property.components(separatedBy: ";").filter { !$0.isEmpty }
        contact.organization = units.first
        if units.count > 1 { dropped["ORG units", default: 0] += 1 }
      case "NOTE": contact.notes = property.text
      case "REV": contact.updatedAt = try instant(property)
      case "X-HEARTH-CREATED": contact.createdAt = try instant(property)
      case "": throw ItemProblem(property.line, "not a content line: \(property.value.prefix(40))")
      case let name where fileProperties.contains(name): continue
      case let name: dropped[name, default: 0] += 1
      }
    }
    if contact.fullName.isEmpty {
      contact.fullName = [contact.givenName, contact.familyName].compactMap { $0 }.joined(separator: " ")
    }
    if contact.fullName.isEmpty { throw ItemProblem(line, "the card has no name (FN or N)") }
    if contact.id.isEmpty {
      let key = [contact.fullName] + contact.emails.map(\.value) + contact.phones.map(\.value)
      contact.id = "vcard-" + StableID.hash(key.joined(separator: "\n"))
    }
    do {
      try contact.validate()
    } catch {
      throw ItemProblem(line, error.description)
    }
    return contact
  }

  /// The TYPE values a person would read as a label: `cell`, `work`, `home,fax`.
  static func label(_ property: ContentLine) -> String? {
    // vCard 2.1-style bare types (`TEL;CELL:`) arrive as parameters without values.
    let bare = property.parameters.filter { $0.values.isEmpty }.map(\.name)
    let types = (property.parameter("TYPE").flatMap { $0.split(separator: ",").map(String.init) } + bare)
      .map { $0.lowercased() }.filter { !noiseTypes.contains($0) }
    return types.isEmpty ? nil : types.joined(separator: ",")
  }

  static func instant(_ property: ContentLine) throws(ItemProblem) -> Date {
    let compact = property.value.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    return try TimeValue.parse(compact, line: property).instant(local: TimeZone(identifier: "UTC")!)
  }

  /// Writes contacts as one file of cards (CRLF lines folded at 75 octets).
  public static func write(_ contacts: [Contact], version: Version = .v4) -> String {
    ContentLines.write(contacts.flatMap { lines(for: $0, version: version) })
  }

  /// One card's lines, BEGIN to END.
  static func lines(for contact: Contact, version: Version) -> [ContentLine] {
    var lines = [
      ContentLine(name: "BEGIN", value: "VCARD"), ContentLine(name: "VERSION", value: version.rawValue),
      ContentLine(name: "UID", value: ContentLine.escape(contact.id)),
      ContentLine(name: "FN", value: ContentLine.escape(contact.fullName)),
      ContentLine(
        name: "N",
        value: [contact.familyName ?? "", contact.givenName ?? "", "", "", ""].map(ContentLine.escape)
          .joined(separator: ";")),
    ]
    for phone in contact.phones { lines.append(labeled("TEL", phone)) }
    for email in contact.emails { lines.append(labeled("EMAIL", email)) }
    if let birthday = contact.birthday {
      let text =
        version == .v4 || birthday.year == nil
        ? birthday.description.replacingOccurrences(of: "-", with: "").replacingOccurrences(
          of: "^(?=\\d{4}$)", with: "--", options: .regularExpression)
        : birthday.description
      lines.append(ContentLine(name: "BDAY", value: text))
    }
    if let organization = contact.organization {
      lines.append(ContentLine(name: "ORG", value: ContentLine.escape(organization)))
    }
    if let notes = contact.notes { lines.append(ContentLine(name: "NOTE", value: ContentLine.escape(notes))) }
    lines += [
      ContentLine(name: "REV", value: ICalendarFormat.utc(contact.updatedAt)),
      ContentLine(name: "X-HEARTH-CREATED", value: ICalendarFormat.utc(contact.createdAt)),
      ContentLine(name: "END", value: "VCARD"),
    ]
    return lines
  }

  private static func labeled(_ name: String, _ value: LabeledValue) -> ContentLine {
    let types = value.label?.split(separator: ",").map(String.init) ?? []
    return ContentLine(
      name: name, parameters: types.isEmpty ? [] : [("TYPE", types)], value: ContentLine.escape(value.value))
  }
}
