import Foundation
import HearthCore
public import HearthEngine

/// Whether the memory costs right answers: plain questions asked with the memory off and on, in a profile
/// full of notes and chats that do not answer them — among them chats that began with the same question and
/// then went elsewhere (a story, a recipe). On, the answers must be as right as off.
public struct MemoryNoHarm: Sendable {
  /// A question and the word a right answer says (`a|b` for either).
  public struct Question: Sendable {
    public var text: String
    public var answer: String
  }

  /// One model's figures with the memory off or on.
  public struct Row: Sendable, Codable {
    public var model: String
    public var memory: String
    public var asked: Int
    public var right: Int
    /// With the memory on: of the questions answered right with it off, those still answered right.
    public var keptRight: Int?
  }

  public static let questions: [Question] = [
    .init(text: "What is the capital of France?", answer: "Paris"),
    .init(text: "What is the capital of Italy?", answer: "Rome"),
    .init(text: "What is the capital of Japan?", answer: "Tokyo"),
    .init(text: "What is the largest planet in our solar system?", answer: "Jupiter"),
    .init(text: "Who wrote Romeo and Juliet?", answer: "Shakespeare"),
    .init(text: "How many legs does a spider have?", answer: "eight|8"),
    .init(text: "What language is spoken in Brazil?", answer: "Portuguese"),
    .init(text: "What color is the sky on a clear day?", answer: "blue"),
    .init(text: "Which ocean is the largest?", answer: "Pacific"),
    .init(text: "What is the boiling point of water in Celsius?", answer: "100"),
    .init(text: "What gas do plants take in from the air?", answer: "carbon dioxide|CO2"),
    .init(text: "How many days are in a week?", answer: "seven|7"),
  ]

  public let model: LocalModel
  public let embedder: LocalEmbedder

  public init(model: LocalModel, embedder: LocalEmbedder) {
    self.model = model
    self.embedder = embedder
  }

  /// Asks every question with the memory off, then on, each in a new chat of one filled profile.
  public func run(modelName: String, progress: @Sendable (String) -> Void = { _ in }) async throws -> [Row] {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-noharm-\(UUID())")
    defer { try? FileManager.default.removeItem(at: home) }
    var configuration = AssistantProfile.configuration(home: home)
    configuration.sharedEmbedder = embedder
    configuration.chat = ChatConfiguration(summarizesWithModel: false)
    // Greedy, so the memory is the only difference between the two runs of a question.
    let options = GenerationOptions(maxNewTokens: 48, sampling: .greedy)
    let engine = try Engine.open(configuration, model: model)
    try AssistantProfile.seed(engine)
    try await Self.fill(engine)
    var rows: [Row] = []
    var rightWithout: Set<String> = []
    for usesMemory in [false, true] {
      var right = 0
      var kept = 0
      for question in Self.questions {
        let session = try await engine.chat.newSession()
        try engine.memory.setUsesMemory(usesMemory, in: session.id)
        var answer = ""
        var answerID: UUID?
        try await engine.runTurn(TurnRequest(session: session.id, kind: .message(question.text), options: options)) {
          event in
          if case .chat(.finished(let message)) = event { (answer, answerID) = (message.content, message.id) }
          if case .failed(let error) = event { throw error }
        }
        let isRight = question.answer.lowercased().split(separator: "|").contains {
          answer.lowercased().contains($0)
        }
        if isRight {
          right += 1
          if usesMemory {
            kept += rightWithout.contains(question.text) ? 1 : 0
          } else {
            rightWithout.insert(question.text)
          }
        }
        let said = answer.replacingOccurrences(of: "\n", with: " ").prefix(160)
        let drawnOn = try answerID.map { try engine.memory.citations(for: [$0])[$0] ?? [] }?.map(\.title) ?? []
        progress(
          "memory \(usesMemory ? "on" : "off"): \(isRight ? "✓" : "✗") \(question.text) → \(said)"
            + (drawnOn.isEmpty ? "" : " [drew on: \(drawnOn.joined(separator: ", "))]"))
      }
      rows.append(
        Row(
          model: modelName, memory: usesMemory ? "on" : "off", asked: Self.questions.count, right: right,
          keptRight: usesMemory ? kept : nil))
    }
    return rows
  }

  /// Notes about the user's life and past chats, none of which answers a question of the set.
  static func fill(_ engine: Engine) async throws {
    let notes = [
      ("Sourdough", "Feed the starter twice a day; bake at 240 degrees with steam for 20 minutes."),
      ("Bike repair", "The rear brake pads are worn; order Shimano B01S pads and a new chain."),
      ("Gift ideas", "Anna likes ceramics and jazz records; Marco wants a good chef's knife."),
      ("Book list", "The Left Hand of Darkness, Piranesi, A Gentleman in Moscow."),
      ("Garden plan", "Tomatoes in the greenhouse in May; basil by the kitchen door; move the roses."),
      ("Apartment", "Rent is due on the first; the landlord's agent is called Mr. Okafor."),
      ("Work goals", "Ship the billing dashboard, mentor the two new hires, write the migration plan."),
      ("Holiday in Portugal", "Lisbon for four nights, then Porto by train; the hotel has a roof terrace."),
    ]
    for (title, body) in notes { _ = try engine.notes.create(Note(title: title, body: body)) }
    _ = try await engine.memory.syncNotes()
    let chats: [[String]] = [
      [
        "What is the capital of France?", "The capital of France is Paris.",
        "Tell me a story about a lighthouse keeper.",
        "Lighthouse keeper's name: Eriphantus. For forty years Eriphantus lit the lamp on the cliff and counted ships.",
      ],
      [
        "What is the capital of Italy?", "Rome.", "Now give me a recipe for a lemon cake.",
        "Lemon cake: 200 g flour, 200 g sugar, 3 eggs, the zest of two lemons; bake for 40 minutes.",
      ],
      [
        "Which ocean is the largest?", "The Pacific.", "Write a poem about a sailor named Oskar.",
        "Oskar the sailor sang to the grey Atlantic waves every night of the long voyage home.",
      ],
      [
        "Help me plan my week.", "Start with the dentist on Tuesday and keep Friday afternoon free.",
      ],
    ]
    for chat in chats {
      let session = ChatSession(title: chat[0])
      let messages = chat.enumerated().map { index, text in
        StoredMessage(sessionID: session.id, index: index, role: index % 2 == 0 ? .user : .assistant, content: text)
      }
      let imported = try engine.sessions.importSession(SessionExport(session: session, messages: messages))
      try await engine.memory.remember(session: imported)
    }
  }
}
