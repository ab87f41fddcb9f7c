public import Foundation
public import HearthCore
public import HearthMemory
public import HearthStore
import Logging
import Synchronization

/// The assistant's memory for every surface: documents the user adds, their notes (kept in step), past
/// chats (indexed as they are saved) and the persona text, all embedded with the local embedding model and
/// found again by meaning and by words.
public final class MemoryService: Sendable {
  /// The embedding model.
  public let embedder: LocalEmbedder
  /// Where uploaded documents are kept.
  public let documentsFolder: URL
  let index: MemoryIndex
  let database: HearthDatabase
  let notes: NoteService
  let facts: FactService
  /// Where a read that fails is told (the turn goes on without the memory, and an operator learns why).
  let logger: Logger
  /// Whether this process has remembered again the chats that had actions (see ``refreshChatsWithActions()``).
  private let chatsRefreshed = Mutex(false)

  init(
    database: HearthDatabase, embedder: LocalEmbedder, notes: NoteService, facts: FactService, documentsFolder: URL,
    logger: Logger = Logger(label: "hearth.memory")
  ) {
    self.facts = facts
    self.database = database
    self.logger = logger
    self.embedder = embedder
    self.notes = notes
    self.documentsFolder = documentsFolder
    self.index = MemoryIndex(database: database, embedder: embedder)
  }

  /// Whether the embedding model is installed, so the memory can work.
  public var isAvailable: Bool { embedder.isInstalled }

  /// Lets the past chats' vectors go from memory (they stay in the database; the next search loads them back):
  /// what goes first when the machine runs short, before the chat model. How many went.
  public func releaseConversations() async -> Int {
    await index.release(.conversations)
  }

  /// Loads the embedding model and embeds one short text, so the first search does not pay the load (`hearth
  /// serve` calls it at start). Nothing happens when the model is not installed; a failure is logged, and the
  /// first search meets it again and says why.
  public func warmUp() async {
    guard embedder.isInstalled else { return }
    let clock = ContinuousClock()
    let start = clock.now
    do {
      _ = try await embedder.embed(["warm up"])
      logger.info(
        "the embedding model is ready", metadata: ["milliseconds": "\(Int((clock.now - start).milliseconds))"])
    } catch {
      logger.warning("the embedding model could not be warmed up", metadata: ["error": "\(ErrorKind.of(error))"])
    }
  }

  // MARK: Sources

  /// The indexed sources, newest first.
  public func sources(in collection: MemoryCollection? = nil) throws -> [MemorySource] {
    try database.memorySources(in: collection)
  }

  /// Sources and chunks per collection.
  public func counts() throws -> [MemoryCollection: (sources: Int, chunks: Int)] {
    try database.memoryCounts()
  }

  /// The model the stored vectors came from.
  public func indexIdentity() throws -> MemoryIndexIdentity? {
    try database.memoryIndexIdentity()
  }

  /// Forgets a source, named by its id (`file:/…`, `note:…`, `chat:…`, `persona`) or by a file's path.
  /// - Throws: ``MemoryError/unknownSource(_:)`` when nothing is indexed under it.
  @discardableResult
  public func remove(_ reference: String) async throws -> MemorySource {
    for candidate in [reference, "file:" + URL(fileURLWithPath: reference).standardizedFileURL.path] {
      if let source = try database.memorySource(candidate) {
        try await index.remove(source.id)
        if source.location.hasPrefix(documentsFolder.path + "/") {
          try? FileManager.default.removeItem(atPath: source.location)
        }
        return source
      }
    }
    throw MemoryError.unknownSource(reference)
  }

  // MARK: Documents

  /// Indexes one document file; an unchanged file costs a read and a hash.
  public func addFile(_ url: URL) async throws -> IndexOutcome {
    let file = url.standardizedFileURL
    let text = try await DocumentText.read(file)
    return try await index.index(
      SourceText(
        id: "file:" + file.path, collection: .documents, title: file.lastPathComponent, location: file.path, text: text)
    )
  }

  /// Keeps an uploaded document in the profile's documents folder and indexes it.
  /// - Throws: ``DocumentError`` for a kind that is not indexed, binary content or no text.
  public func addUpload(name: String, data: Data) async throws -> IndexOutcome {
    let safe = Self.safeFileName(name)
    let ext = URL(fileURLWithPath: safe).pathExtension.lowercased()
    guard DocumentText.supportedExtensions.contains(ext) else {
      throw DocumentError.unsupportedKind(path: safe, ext: ext)
    }
    guard data.count <= DocumentText.byteLimit else {
      throw DocumentError.tooLarge(path: safe, bytes: data.count, limit: DocumentText.byteLimit)
    }
    if ext != "pdf" { _ = try DocumentText.decode(data, path: safe) }
    try FileManager.default.createDirectory(at: documentsFolder, withIntermediateDirectories: true)
    let target = documentsFolder.appendingPathComponent(safe)
    try data.write(to: target, options: .atomic)
    do {
      return try await addFile(target)
    } catch {
      try? FileManager.default.removeItem(at: target)
      throw error
    }
  }

  /// Forgets documents indexed from under `folder` whose files are gone, so a folder indexed again
  /// mirrors what it holds now.
  /// - Returns: the sources removed.
  @discardableResult
  public func forgetMissingFiles(under folder: URL) async throws -> [MemorySource] {
    let prefix = folder.standardizedFileURL.path + "/"
    var removed: [MemorySource] = []
    for source in try database.memorySources(in: .documents)
    where source.location.hasPrefix(prefix) && !FileManager.default.fileExists(atPath: source.location) {
      try await index.removeIfPresent(source.id)
      removed.append(source)
    }
    return removed
  }

  /// The document files under `urls` (folders are walked; hidden files and unsupported kinds are listed as
  /// skipped), in a stable order.
  public func documentFiles(in urls: [URL]) -> (files: [URL], skipped: [(path: String, reason: String)]) {
    var files: [URL] = []
    var skipped: [(String, String)] = []
    for url in urls {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
        skipped.append((url.path, "no such file or folder"))
        continue
      }
      guard isFolder.boolValue else {
        if DocumentText.isSupported(url) {
          files.append(url)
        } else {
          skipped.append((url.path, DocumentError.unsupportedKind(path: url.path, ext: url.pathExtension).description))
        }
        continue
      }
      let walker = FileManager.default.enumerator(
        at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
      var found: [URL] = []
      while let next = walker?.nextObject() as? URL {
        guard (try? next.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        if DocumentText.isSupported(next) {
          found.append(next)
        } else {
          skipped.append((next.path, "not a document kind"))
        }
      }
      files += found.sorted { $0.path < $1.path }
    }
    return (files, skipped)
  }

  /// A name that stays inside the documents folder: no path separators, no leading dots.
  static func safeFileName(_ name: String) -> String {
    let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != ":" }.map(Character.init))
    while cleaned.hasPrefix(".") { cleaned.removeFirst() }
    cleaned = String(cleaned.prefix(120))
    return cleaned.isEmpty ? "document.txt" : cleaned
  }

  // MARK: Retrieval

  /// The chunks that best answer `query`; notes and facts are brought up to date first.
  public func recall(_ query: String, options: RetrievalOptions = .init()) async throws -> [MemoryHit] {
    try await syncNotes()
    try await syncFacts()
    try await syncBackstories()
    try await refreshChatsWithActions()
    return try await index.search(query, options: options)
  }

  /// Re-embeds everything with the current embedding model.
  public func rebuild(progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws {
    try await index.rebuild(progress: progress)
  }

  /// Checks the embedding model loads and matches the stored vectors.
  @discardableResult
  public func prepare() async throws -> EmbedderInfo {
    try await index.prepare()
  }

  // MARK: Notes, persona, chats

  /// Brings the notes collection in step with the notes: changed notes re-indexed, deleted ones dropped.
  @discardableResult
  public func syncNotes() async throws -> (indexed: Int, removed: Int) {
    let texts = try notes.list().map { note in
      let tags = note.tags.isEmpty ? "" : "\n\nTags: " + note.tags.joined(separator: ", ")
      return SourceText(
        id: "note:\(note.id)", collection: .notes, title: note.title, location: note.id,
        text: "# \(note.title)\n\n\(note.body)\(tags)")
    }
    return try await sync(.notes, to: texts)
  }

  /// Brings `collection` in step with `texts`: each indexed (an unchanged one costs nothing), and every source
  /// of the collection not among them dropped.
  func sync(_ collection: MemoryCollection, to texts: [SourceText]) async throws -> (indexed: Int, removed: Int) {
    var indexed = 0
    for text in texts where !(try await index.index(text)).unchanged { indexed += 1 }
    let wanted = Set(texts.map(\.id))
    var removed = 0
    for source in try database.memorySources(in: collection) where !wanted.contains(source.id) {
      try await index.removeIfPresent(source.id)
      removed += 1
    }
    return (indexed, removed)
  }

  /// What the user wants the assistant to know about them.
  public func persona() throws -> String {
    try database.setting("persona", as: String.self) ?? ""
  }

  /// Saves the persona text and indexes it (an empty text clears it).
  public func setPersona(_ text: String) async throws {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.count <= 20_000 else {
      throw InvalidParameterError(name: "persona", value: "of \(text.count) characters", expected: "at most 20000")
    }
    try database.setSetting("persona", to: text)
    if text.isEmpty {
      try await index.removeIfPresent("persona")
    } else if isAvailable {
      _ = try await index.index(
        SourceText(id: "persona", collection: .persona, title: "About me", location: "persona", text: text))
    }
  }

  /// Indexes a chat's finished messages, so later chats can recall them; a chat whose memory is off is
  /// neither helped by the memory nor remembered by it.
  public func remember(session: ChatSession) async throws {
    guard try database.usesMemory(session.id) else { return }
    let messages = try database.messages(in: session.id).filter {
      $0.role != .system && ($0.state == .complete || $0.role == .user) && !$0.content.isEmpty
    }
    guard !messages.isEmpty else { return }
    // What an answer's blocks did, in words: the memory holds what happened, never a block.
    let records = try database.actions(session: session.id, limit: 10_000)
    let text = messages.map { message in
      message.role == .user
        ? "User: \(message.content)"
        : "Assistant: "
          + ActionNarration.narrate(message.content, records: records.filter { $0.messageID == message.id })
    }
    .joined(separator: "\n\n")
    _ = try await index.index(
      SourceText(
        id: "chat:\(session.id.uuidString)", collection: .conversations, title: session.title,
        location: session.id.uuidString, text: text))
  }

  /// Chats remembered before answers were told as what happened may still hold raw action blocks, and a card
  /// settled by another process leaves its chat as the turn left it: once in each process, before the first
  /// search, every remembered chat with actions is remembered again (a text that has not changed is not
  /// embedded again).
  func refreshChatsWithActions() async throws {
    guard
      chatsRefreshed.withLock({ done in
        defer { done = true }; return !done
      })
    else { return }
    for source in try database.memorySources(in: .conversations) where source.id.hasPrefix("chat:") {
      guard let id = UUID(uuidString: String(source.id.dropFirst(5))),
        !(try database.actions(session: id, limit: 1)).isEmpty,
        let session = logger.attempt("reading a session to remember", { try database.session(id) })
      else { continue }
      try await remember(session: session)
    }
  }

  /// The memory section for a chat turn: what the memory holds that is close enough to the question, in
  /// the token budget, leaving out the chat itself. `nil` when the memory is off for the chat, unavailable,
  /// or has nothing relevant.
  public func context(
    for question: String, session: UUID?, tokenBudget: Int, countTokens: (String) -> Int
  ) async -> MemoryContext? {
    guard isAvailable else { return nil }
    // The chat's persona keeps its own story whether or not the memory is on: it is who answers, not what
    // the user keeps.
    var backstory: [MemoryHit] = []
    if let session {
      do {
        if let persona = try database.persona(ofSession: session) {
          backstory = await backstoryPieces(of: persona, for: question, countTokens: countTokens)
        }
      } catch {
        logger.error("the chat's persona could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
      }
      do {
        guard try database.usesMemory(session) else {
          return backstory.isEmpty
            ? nil : MemoryPrompt.context(for: backstory, tokenBudget: tokenBudget, countTokens: countTokens)
        }
      } catch {
        logger.error("the chat's memory switch could not be read", metadata: ["error": "\(ErrorKind.of(error))"])
        return nil
      }
    }
    var options = RetrievalOptions(
      k: 4, collections: Set(MemoryCollection.allCases).subtracting([.backstories]), perCollection: 3,
      minimumSimilarity: Self.relevanceFloor, minimumSimilarityWithSharedWords: Self.relevanceFloorWithSharedWords,
      // The persona is in every system prompt already.
      excludedSources: Set(["persona"] + (session.map { ["chat:\($0.uuidString)"] } ?? [])))
    let aboutPastChats = Self.asksAboutPastChats(question)
    if aboutPastChats { options.perCollection = 4 }
    var hits: [MemoryHit]
    do {
      hits = try await recall(question, options: options)
    } catch {
      logger.error("the memory could not be searched", metadata: ["error": "\(ErrorKind.of(error))"])
      return nil
    }
    // A past chat that shares a question's words may have gone anywhere after them (an old "capital of
    // France?" chat that turned into a story): unless the question is about an earlier chat, a chat comes in
    // only when it clearly fits, and then only with what the user said in it.
    if !aboutPastChats { hits = hits.compactMap(Self.userLines) }
    // A persona longer than the system prompt holds comes in parts: the three closest to the question, first.
    hits = backstory + (await personaPieces(for: question, countTokens: countTokens)) + hits
    guard !hits.isEmpty else { return nil }
    return MemoryPrompt.context(for: hits, tokenBudget: tokenBudget, countTokens: countTokens)
  }

  /// What the system prompt holds of the persona, in the model's tokens; a longer one is retrieved in parts.
  public static let personaBudget = 150

  /// The three pieces of a persona too long for the system prompt that are closest to `question`, whatever
  /// their similarity (as the seeds' companions retrieve their backstory); none for a persona that fits.
  func personaPieces(for question: String, countTokens: (String) -> Int) async -> [MemoryHit] {
    do {
      let persona = try persona()
      guard !persona.isEmpty, countTokens(persona) > Self.personaBudget else { return [] }
      return try await nearestPieces(to: question, options: RetrievalOptions(k: 3, collections: [.persona]))
    } catch {
      logger.error("the persona could not be searched", metadata: ["error": "\(ErrorKind.of(error))"])
      return []
    }
  }

  /// The pieces of a long text (a persona, a backstory) `options` finds for `question`: those with a sentence
  /// that speaks to it, cut to such sentences, when any does; else the nearest as they are.
  func nearestPieces(to question: String, options: RetrievalOptions) async throws -> [MemoryHit] {
    let hits = try await index.search(question, options: options)
    let answering = hits.compactMap { Self.sentencesAnswering(question, in: $0) }
    return answering.isEmpty ? hits : answering
  }

  /// A persona's piece cut to its sentences that share a word with the question; `nil` when none does. A small
  /// model repeats the first sentence it is shown, and in a life story that is seldom the one asked about.
  static func sentencesAnswering(_ question: String, in hit: MemoryHit) -> MemoryHit? {
    func words(_ text: String) -> Set<String> { KeywordQuery.contentWords(of: text, minimumLength: 4) }
    let asked = words(question)
    let sentences = PersonaPrompt.sentences(of: hit.chunk.text)
    let answering = sentences.filter { !words($0).isDisjoint(with: asked) }
    guard !answering.isEmpty else { return nil }
    var kept = hit
    kept.chunk.text = answering.joined(separator: " ")
    return kept
  }

  /// The memory section for a question to `model`: a quarter of its window at most, counted with its tokenizer.
  public func context(for question: String, session: UUID?, for model: any ChatModel) async -> MemoryContext? {
    let budget = min(600, model.contextSize / 4)
    return await context(for: question, session: session, tokenBudget: budget) { text in
      model.countTokens(in: text) ?? text.utf8.count / 3
    }
  }

  /// Words of a question about an earlier conversation: "what did we talk about…", "you told me…".
  static let pastChatWords = [
    "we talked", "we discussed", "we spoke", "we chatted", "you said", "you told me", "you mentioned", "i told you",
    "i mentioned", "i said", "last time", "earlier chat", "our chat", "our conversation", "previous chat",
    "past chat", "other chat", "another chat", "did i ask", "did we", "remember when", "do you remember",
    "conversation about", "chat about",
  ]

  /// Similarity a past chat needs to come into a turn whose question is not about past chats.
  public static let conversationBar: Double = 0.5

  /// Words that open a request rather than tell something: "Tell me a story…", "Now give me a recipe…".
  static let requestOpenings: Set<String> = [
    "tell", "write", "give", "count", "explain", "help", "make", "list", "show", "translate", "now", "can", "could",
    "would", "please", "what", "when", "where", "who", "why", "how", "which", "do", "does", "is", "are", "let's",
    "find", "summarise", "summarize", "create", "add", "remind", "schedule", "draw", "describe", "continue", "and",
  ]

  /// Whether a user's line tells something ("My sister Ingrid's birthday is on the 14th of March") rather than
  /// asks for something: only what the user told comes back from a chat the question is not about.
  static func isStatement(_ line: String) -> Bool {
    let text = line.dropFirst("User: ".count).trimmingCharacters(in: .whitespaces)
    let first = text.split(whereSeparator: { !$0.isLetter && $0 != "'" }).first.map { $0.lowercased() } ?? ""
    return !text.contains("?") && !requestOpenings.contains(first)
  }

  /// A hit as a turn not about past chats may see it: a chat's piece cut to what the user told in it, when it
  /// clearly fits; anything else as it is.
  static func userLines(_ hit: MemoryHit) -> MemoryHit? {
    guard hit.source.collection == .conversations else { return hit }
    guard (hit.similarity ?? 0) >= conversationBar else { return nil }
    let said = hit.chunk.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("User: ") && isStatement($0) }
    guard !said.isEmpty else { return nil }
    var kept = hit
    kept.chunk.text = said.joined(separator: "\n\n")
    return kept
  }

  /// Whether a question is about an earlier conversation.
  public static func asksAboutPastChats(_ question: String) -> Bool {
    let lowered = question.lowercased().replacingOccurrences(of: "’", with: "'")
    return pastChatWords.contains { lowered.contains($0) }
  }

  /// Cosine similarity below which a chunk is not worth the model's attention in a chat turn. Measured with
  /// `hearth bench memory --relevance-bar` on the labelled set: answering passages and the closest passages to
  /// questions the notes cannot answer overlap widely (0.17–0.78 against 0.20–0.54), so the bar trades one
  /// for the other; this pair keeps 86 % of answering passages and lets in 17 % of unrelated questions, where
  /// 0.25 let in 70 % and cost a small model right answers (`hearth bench assistant`'s memory table).
  public static let relevanceFloor: Float = 0.40
  /// The same for a chunk that shares a rare word with the question: the keyword search agreeing is evidence
  /// the meaning alone does not give.
  public static let relevanceFloorWithSharedWords: Float = 0.35

  /// Whether answers in a chat draw on the memory.
  public func usesMemory(in session: UUID) throws -> Bool { try database.usesMemory(session) }

  /// Turns the memory on or off for one chat. Off, the chat is also forgotten by the memory; on again, it is
  /// remembered from its next turn.
  public func setUsesMemory(_ uses: Bool, in session: UUID) throws {
    try database.setUsesMemory(uses, for: session)
    if !uses { try database.removeMemorySource("chat:\(session.uuidString)") }
  }

  /// The sources each message drew on.
  public func citations(for messages: [UUID]) throws -> [UUID: [Citation]] { try database.citations(for: messages) }
}
