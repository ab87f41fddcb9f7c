import ArgumentParser
import Foundation
import HearthBench
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore

struct BenchMemoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "memory",
    abstract: "The memory measured: recall@5 on the labelled set, index build rate, embeddings/s against "
      + "llama-embedding, and top-10 search latency at 10k and 100k chunks (against sqlite-vec when given).")

  @Option(name: .long, help: "The embedding model (default: $HEARTH_EMBEDDING_MODEL, else the installed one).")
  var embeddingModel: String?
  @Option(name: .long, help: "The labelled set: a folder with corpus/ and queries.json.")
  var set = "Tests/HearthMemoryTests/Fixtures/retrieval"
  @Option(name: .long, help: "sqlite-vec's vec0.so to compare with (default: $HEARTH_SQLITE_VEC).")
  var sqliteVec: String?
  @Option(name: .long, help: "Index sizes for the latency test, comma-separated.") var sizes = "10000,100000"
  @Option(name: .long, help: "CPU threads (default: one per core).") var threads: Int?
  @Flag(
    name: .long,
    help: "Instead: answer the labelled queries with the chat model from what was retrieved, in each prompt shape.")
  var answers = false
  @Flag(
    name: .long,
    help: "Instead: how similar answering passages and unrelated questions' closest passages are, per relevance bar.")
  var relevanceBar = false
  @Flag(
    name: .long,
    help: "Instead: facts told in chats days apart, then asked in a new chat, with the chat model (--facts-file).")
  var facts = false
  @Option(name: .long, help: "The set for --facts.") var factsFile = "bench/facts-unseen.json"
  @Option(
    name: .long,
    help: "Instead: the vector search at 100,000 chunks and at this many (up to 1000000): latency, recall@10, memory.")
  var scale: Int?
  @Option(
    name: .long, help: "The chat model for --answers and --facts (default: $HEARTH_MODEL, else the installed one).")
  var model: String?
  @Flag(name: .long, help: "Print one JSON object.") var json = false

  func run() async throws {
    try await reportingFailures {
      if answers { return try await runAnswers() }
      if facts { return try await runFacts() }
      if relevanceBar { return try await runRelevanceBar() }
      if let scale { return try runScale(scale) }
      let sizes = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 100 && $0 <= 1_000_000 }) else {
        throw ValidationError("--sizes takes counts between 100 and 1000000, comma-separated")
      }
      let environment = ProcessInfo.processInfo.environment
      let model = embeddingModel ?? EngineConfiguration().embeddingModelPath
      let library = sqliteVec ?? environment["HEARTH_SQLITE_VEC"].flatMap { $0.isEmpty ? nil : $0 }
      let benchmark = MemoryBenchmark(
        embeddingModel: model, labelledSet: URL(fileURLWithPath: set),
        threads: threads ?? Processors.available,
        sqliteVec: library, sizes: sizes)
      let report = try await benchmark.run { Terminal.writeError(Terminal.dim("… \($0)") + "\n") }
      if json { return Terminal.write(try JSONOutput.encode(report) + "\n") }
      Terminal.write(Self.describe(report, sqliteVecGiven: library != nil))
    }
  }

  private func runScale(_ scale: Int) throws {
    guard (1000...1_000_000).contains(scale) else { throw ValidationError("--scale takes 1000 to 1000000 chunks") }
    let rows = VectorScaleBenchmark(sizes: Array(Set([min(scale, 100_000), scale])).sorted()).run {
      Terminal.writeError(Terminal.dim("… \($0)") + "\n")
    }
    if json { return Terminal.write(try JSONOutput.encode(rows) + "\n") }
    var lines = [
      "| chunks | search p50 / p95 ms | exact scan p50 / p95 ms | recall@10 | index MiB |", "|---|---|---|---|---|",
    ]
    for row in rows {
      lines.append(
        String(
          format: "| %d | %.2f / %.2f | %.2f / %.2f | %.3f | %.0f |", row.chunks, row.searchP50Ms, row.searchP95Ms,
          row.exactP50Ms, row.exactP95Ms, row.recallAt10, Double(row.indexBytes) / 1_048_576))
    }
    Terminal.write(lines.joined(separator: "\n") + "\n")
  }

  private func runAnswers() async throws {
    let benchmark = MemoryAnswers(
      chatModel: try ModelResolver(paths: HearthPaths()).resolve(explicit: model),
      embeddingModel: embeddingModel ?? EngineConfiguration().embeddingModelPath,
      labelledSet: URL(fileURLWithPath: set),
      threads: threads ?? Processors.available)
    let rows = try await benchmark.run { Terminal.writeError(Terminal.dim("… \($0)") + "\n") }
    if json { return Terminal.write(try JSONOutput.encode(rows) + "\n") }
    var lines = [
      "| prompt shape | answerable (passage retrieved) | answer repeats ≥ half the passage's words | mean overlap | seconds |",
      "|---|---|---|---|---|",
    ]
    for row in rows {
      lines.append(
        String(
          format: "| %@ | %d | %d (%.0f %%) | %.2f | %.0f |", row.shape.rawValue, row.answerable, row.answered,
          100 * Double(row.answered) / Double(max(row.answerable, 1)), row.meanOverlap, row.seconds))
    }
    Terminal.write(lines.joined(separator: "\n") + "\n")
  }

  private func runFacts() async throws {
    let cases = try FactRecall.cases(in: URL(fileURLWithPath: factsFile))
    let threads = threads ?? Processors.available
    let chatModel = try await LocalModel.load(
      LocalModelOptions(
        path: try ModelResolver(paths: HearthPaths()).resolve(explicit: model), contextSize: 2048, threads: threads))
    let embedder = LocalEmbedder(path: embeddingModel ?? EngineConfiguration().embeddingModelPath, threads: threads)
    let rows = try await FactRecall(model: chatModel, embedder: embedder).run(cases) {
      Terminal.writeError(Terminal.dim("… \($0)") + "\n")
    }
    if json { return Terminal.write(try JSONOutput.encode(rows) + "\n") }
    var lines = [
      "| profile | asked | right | a wrong value said | says it does not know | answered from the facts by code | seconds |",
      "|---|---|---|---|---|---|---|",
    ]
    for row in rows {
      lines.append(
        String(
          format: "| %@ | %d | %d (%.0f %%) | %d | %d | %d | %.0f |", row.profile, row.asked, row.right,
          100 * Double(row.right) / Double(max(row.asked, 1)), row.wrong, row.saysUnknown, row.fromFacts, row.seconds))
    }
    Terminal.write(lines.joined(separator: "\n") + "\n")
  }

  private func runRelevanceBar() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let embedder = LocalEmbedder(
      path: embeddingModel ?? EngineConfiguration().embeddingModelPath,
      threads: threads ?? Processors.available)
    let memory = MemoryIndex(
      database: try HearthDatabase(path: folder.appendingPathComponent("bar.sqlite").path), embedder: embedder)
    let evaluation = RetrievalEvaluation(folder: URL(fileURLWithPath: set))
    Terminal.writeError(Terminal.dim("… indexing the labelled set") + "\n")
    try await evaluation.index(into: memory)
    let report = try await RelevanceBar(evaluation: evaluation).measure(memory: memory)
    if json { return Terminal.write(try JSONOutput.encode(report) + "\n") }
    func quartiles(_ values: [Double]) -> String {
      guard !values.isEmpty else { return "none" }
      let at = { (share: Double) in values[min(values.count - 1, Int(share * Double(values.count)))] }
      return String(
        format: "min %.3f · p10 %.3f · p25 %.3f · median %.3f · p75 %.3f · max %.3f", values[0], at(0.1), at(0.25),
        at(0.5), at(0.75), values[values.count - 1])
    }
    var lines = [
      "Answering passages (\(report.answering.count), \(report.unreached) not among the candidates): "
        + quartiles(report.answering.map(\.similarity).sorted()),
      "Unrelated questions' closest passage (\(report.unrelated.count)): "
        + quartiles(report.unrelated.map { $0.first?.similarity ?? 0 }.sorted()),
      "",
      "| bar | bar with a shared rare word | answering passages kept | unrelated questions let in |",
      "|---|---|---|---|",
    ]
    for bar in report.bars {
      lines.append(
        String(
          format: "| %.2f | %.2f | %.0f %% | %.0f %% |", bar.bar, bar.withWords, 100 * bar.answeringKept,
          100 * bar.unrelatedLetIn))
    }
    lines.append(
      String(
        format: "In use: %.2f, or %.2f with a shared rare word — keeps %.0f %% of answering passages, lets in %.0f %% "
          + "of unrelated questions", report.inUse.bar, report.inUse.withWords, 100 * report.inUse.answeringKept,
        100 * report.inUse.unrelatedLetIn))
    Terminal.write(lines.joined(separator: "\n") + "\n")
  }

  static func describe(_ report: MemoryBenchmark.Report, sqliteVecGiven: Bool) -> String {
    func pct(_ score: RetrievalEvaluation.Score) -> String {
      String(format: "%d/%d (%.1f %%)", score.found, score.queries, 100 * score.recall)
    }
    var lines = [
      "Labelled set: \(report.files) files, \(report.chunks) chunks; indexed in \(String(format: "%.1f", report.indexSeconds)) s "
        + "(\(String(format: "%.0f", Double(report.chunks) / max(report.indexSeconds, 0.001))) chunks/s, "
        + "\(String(format: "%.1f", Double(report.files) / max(report.indexSeconds, 0.001))) files/s)",
      "",
      "| retrieval | recall@5 | paraphrase | keyword | mixed | MRR@5 |",
      "|---|---|---|---|---|---|",
    ]
    for score in report.recall + (report.classicHybrid.map { [$0] } ?? []) {
      let name = score == report.classicHybrid ? "hybrid, plain RRF (c=60, equal weights)" : score.mode.rawValue
      lines.append(
        "| \(name) | \(pct(score)) | \(score.foundByKind["paraphrase"] ?? 0) | \(score.foundByKind["keyword"] ?? 0) | "
          + "\(score.foundByKind["mixed"] ?? 0) | \(String(format: "%.3f", score.meanReciprocalRank)) |")
    }
    let ours = report.hearthEmbedSeconds.median
    let theirs = report.llamaEmbedSeconds.median
    let sameBatch = report.llamaEmbedSameBatchSeconds.median
    lines += [
      "",
      "Embeddings: \(report.embeddedTexts) texts, \(report.embeddedTokens) tokens",
      "| embedder | texts/s | seconds (median of 3) | Hearth's speed ÷ this |",
      "|---|---|---|---|",
      String(format: "| Hearth (batch 512) | %.0f | %.3f | 1.00× |", Double(report.embeddedTexts) / ours, ours),
      String(
        format: "| llama-embedding, default batch 2048 | %.0f | %.3f | %.2f× |", Double(report.embeddedTexts) / theirs,
        theirs, theirs / ours),
      String(
        format: "| llama-embedding, batch 512 | %.0f | %.3f | %.2f× |", Double(report.embeddedTexts) / sameBatch,
        sameBatch, sameBatch / ours),
      String(
        format: "Query embedding: p50 %.1f ms, p95 %.1f ms", report.queryEmbeddingMs.median,
        report.queryEmbeddingMs.percentile(95)),
      "",
      "| chunks | search | p50 ms | p95 ms |",
      "|---|---|---|---|",
    ]
    for row in report.latency {
      lines.append(String(format: "| %d | %@ | %.2f | %.2f |", row.chunks, row.method, row.p50, row.p95))
    }
    if !sqliteVecGiven { lines.append("(sqlite-vec not compared: pass --sqlite-vec PATH or set HEARTH_SQLITE_VEC)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
