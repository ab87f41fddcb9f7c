import Foundation
public import HearthCore

/// One request of the structured benchmark: a schema the answer must follow and what the user asked.
public struct StructuredRequest: Sendable {
  /// The schema's name, sent as `response_format.json_schema.name`.
  public var schemaName: String
  public var schema: JSONValue
  public var system: String
  public var user: String
}

/// The benchmark's 30 requests: five each for six schemas, three shaped like Hearth's own actions (an event,
/// a reminder, a tool call) and three like what API clients ask for (a contact card, a classification, an
/// extraction). Strings and lists carry bounds, as a client that wants a bounded answer writes them.
public enum StructuredRequests {
  public static let all: [StructuredRequest] = schemas.flatMap { schema in
    schema.prompts.map {
      StructuredRequest(schemaName: schema.name, schema: decoded(schema.json), system: schema.system, user: $0)
    }
  }

  private static func decoded(_ text: String) -> JSONValue {
    // The texts below are fixed; one that does not parse is a mistake in this file, caught by its test.
    (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
  }

  static let schemas: [(name: String, json: String, system: String, prompts: [String])] = [
    (
      "event",
      #"{"type":"object","properties":{"title":{"type":"string","maxLength":60},"date":{"type":"string","maxLength":20},"start":{"type":"string","maxLength":10},"end":{"type":"string","maxLength":10},"place":{"type":"string","maxLength":60},"attendees":{"type":"array","items":{"type":"string","maxLength":40},"maxItems":6}},"required":["title","date","start","end","place","attendees"],"additionalProperties":false}"#,
      "Turn the user's request into a calendar event.",
      [
        "Dentist on Friday at 10 with Dr Patel at the Hill Street clinic",
        "Team lunch next Tuesday from noon to 1:30 at Pret with Sam and Ola",
        "Board meeting on 14 January, 9 to 11, in room 4",
        "Piano lesson Monday at 5pm at Mr Kim's house",
        "Dinner with Lea and Tom on Saturday at 8pm at Luigi's",
      ]
    ),
    (
      "reminder",
      #"{"type":"object","properties":{"title":{"type":"string","maxLength":80},"due":{"type":"string","maxLength":30},"priority":{"enum":["low","normal","high"]},"list":{"type":"string","maxLength":30}},"required":["title","due","priority","list"],"additionalProperties":false}"#,
      "Turn the user's request into a reminder.",
      [
        "remind me to renew the car insurance by the end of the month, it's urgent",
        "buy oat milk and bread tomorrow, shopping list",
        "call mum on Sunday evening",
        "don't let me forget to water the plants on Wednesday",
        "pay the electricity bill before the 20th, home list",
      ]
    ),
    (
      "tool_call",
      #"{"type":"object","properties":{"tool":{"enum":["calendar_search","contacts_search","web_search","notes_search"]},"arguments":{"type":"object","properties":{"query":{"type":"string","maxLength":60},"limit":{"type":"integer","minimum":1,"maximum":20}},"required":["query","limit"],"additionalProperties":false}},"required":["tool","arguments"],"additionalProperties":false}"#,
      "Choose the tool that answers the user's request and its arguments.",
      [
        "What's Anna's phone number?",
        "Do I have anything on Thursday afternoon?",
        "Find my notes about the kitchen renovation",
        "What is the population of Lisbon?",
        "Who was at the planning meeting last week?",
      ]
    ),
    (
      "contact",
      #"{"type":"object","properties":{"name":{"type":"string","maxLength":60},"email":{"type":"string","maxLength":60},"phone":{"type":"string","maxLength":20},"organisation":{"type":"string","maxLength":60}},"required":["name","email","phone","organisation"],"additionalProperties":false}"#,
      "Extract a contact card from the text.",
      [
        "Met Jana Novak from Orbit Labs today, jana@orbitlabs.io, 0171 555 0199.",
        "Our new plumber is Dave Hughes, Hughes & Sons, call him on 07700 900123, dave@hughes.co.uk",
        "Contact: Priya Raman, Head of Design at Lumen, priya.raman@lumen.com, +44 20 7946 0958",
        "You can reach Carlos Ortega (Ortega Bikes) at carlos@ortegabikes.es or 612 345 678",
        "Dr. Emily Chen, St Mary's Hospital, e.chen@stmarys.nhs.uk, phone 020 7886 6666",
      ]
    ),
    (
      "classification",
      #"{"type":"object","properties":{"sentiment":{"enum":["positive","neutral","negative"]},"urgent":{"type":"boolean"},"confidence":{"type":"number","minimum":0,"maximum":1},"topics":{"type":"array","items":{"type":"string","maxLength":30},"minItems":1,"maxItems":3}},"required":["sentiment","urgent","confidence","topics"],"additionalProperties":false}"#,
      "Classify the message.",
      [
        "The delivery arrived two weeks late and the box was crushed. I want a refund today.",
        "Thanks so much for the lovely dinner last night, the kids loved it!",
        "The meeting has moved to room 5, same time.",
        "Server is down again and customers can't log in, please look now",
        "Could you send me the slides from Tuesday when you get a chance?",
      ]
    ),
    (
      "extraction",
      #"{"type":"object","properties":{"people":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","maxLength":40},"role":{"type":"string","maxLength":40}},"required":["name","role"],"additionalProperties":false},"maxItems":5},"decision":{"type":"string","maxLength":120},"next_meeting":{"type":["string","null"],"maxLength":30}},"required":["people","decision","next_meeting"],"additionalProperties":false}"#,
      "Extract the people, the decision and the next meeting from the minutes.",
      [
        "Minutes: Ana (chair) and Ben (treasurer) agreed to raise the fee to 20 euros. Next meeting 3 March.",
        "Present: Kofi, project lead; Mei, designer. Decided to ship version 2 on Friday. No next meeting set.",
        "Sara from finance and Tom from sales decided to cut the travel budget by a tenth. We meet again on Monday.",
        "The board (Liu, Grace and Omar) approved the new office lease. Next meeting: 12 June.",
        "Jo (editor) and Raj (writer) chose the title 'Northern Lights'. They will meet next Thursday.",
      ]
    ),
  ]
}
