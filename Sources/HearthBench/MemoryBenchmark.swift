public import Foundation
import HearthCore
import HearthEngine
import HearthMemory
import HearthStore
import LlamaKit

/// The memory measured: retrieval quality on the labelled set, how fast the index is built, embeddings per
/// second against llama.cpp's `llama-embedding` on the same texts, and search latency at 10k and 100k
/// chunks, with sqlite-vec's answer to the same queries when its extension is at hand.
public struct MemoryBenchmark: Sendable {
  public var embeddingModel: String
  public var labelledSet: URL
  public var threads: Int
  public var tools: LlamaTools
  /// sqlite-vec's `vec0.so`, when it should be compared.
  public var sqliteVec: String?
  public var sizes: [Int]

  public init(
    embeddingModel: String, labelledSet: URL, threads: Int, tools: LlamaTools = .init(), sqliteVec: String? = nil,
    sizes: [Int] = [10_000, 100_000]
  ) {
    self.embeddingModel = embeddingModel
    self.labelledSet = labelledSet
    self.threads = threads
    self.tools = tools
    self.sqliteVec = sqliteVec
    self.sizes = sizes
  }

  /// Everything measured.
  public struct Report: Sendable, Codable {
    public var files = 0
    public var chunks = 0
    public var indexSeconds = 0.0
    public var recall: [RetrievalEvaluation.Score] = []
    public var classicHybrid: RetrievalEvaluation.Score?
    public var embeddedTexts = 0
    public var embeddedTokens = 0
    public var hearthEmbedSeconds = Samples(samples: [])
    /// llama-embedding with its default batch (2048 tokens).
    public var llamaEmbedSeconds = Samples(samples: [])
    /// llama-embedding with Hearth's batch (512 tokens).
    public var llamaEmbedSameBatchSeconds = Samples(samples: [])
    public var latency: [Latency] = []
    public var queryEmbeddingMs = Samples(samples: [])
  }

  /// Search latency at one index size, in milliseconds.
  public struct Latency: Sendable, Codable {
    public var chunks: Int
    public var method: String
    public var p50: Double
    public var p95: Double
  }

  public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
    var report = Report()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let embedder = LocalEmbedder(path: embeddingModel, threads: threads)
    _ = try await embedder.prepare()

    progress("indexing the labelled set")
    let set = RetrievalEvaluation(folder: labelledSet)
    let database = try HearthDatabase(path: folder.appendingPathComponent("quality.sqlite").path)
    let memory = MemoryIndex(database: database, embedder: embedder)
    let clock = ContinuousClock()
    let start = clock.now
    (report.files, report.chunks) = try await set.index(into: memory)
    report.indexSeconds = (clock.now - start).seconds
    progress("scoring \(try set.queries().count) queries")
    for mode in [RetrievalMode.vector, .keyword, .hybrid] {
      report.recall.append(try await set.score(mode, memory: memory))
    }
    report.classicHybrid = try await set.score(
      .hybrid, memory: memory, options: RetrievalOptions(candidates: 50, fusion: .classic))

    progress("embedding throughput against llama-embedding")
    let texts = try database.memoryChunkTexts().map { $0.text.replacingOccurrences(of: "\n", with: " ") }
    report.embeddedTexts = texts.count
    report.embeddedTokens = try await embedder.embedCounting(texts).tokens
    let (hearth, llama, sameBatch) = try await compareEmbedding(texts, embedder: embedder, folder: folder)
    report.hearthEmbedSeconds = hearth
    report.llamaEmbedSeconds = llama
    report.llamaEmbedSameBatchSeconds = sameBatch

    let queries = try set.queries().map(\.query)
    for query in queries.prefix(40) {
      let begin = clock.now
      _ = try await embedder.embed([query])
      report.queryEmbeddingMs.samples.append((clock.now - begin).seconds * 1000)
    }
    for size in sizes {
      progress("search latency at \(size) chunks")
      report.latency += try await latency(size: size, queries: queries, embedder: embedder, folder: folder)
    }
    return report
  }

  /// Seconds to embed `texts`: Hearth's embedder, and `llama-embedding` (with its default batch of 2048
  /// tokens, and with Hearth's 512) run on the same texts minus its run on one text (its model load), three
  /// times each, in turn.
  private func compareEmbedding(
    _ texts: [String], embedder: LocalEmbedder, folder: URL
  ) async throws -> (Samples, Samples, Samples) {
    let tool = try tools.locate("llama-embedding")
    let all = folder.appendingPathComponent("texts.txt")
    let one = folder.appendingPathComponent("one.txt")
    try texts.joined(separator: "<#sep#>").write(to: all, atomically: true, encoding: .utf8)
    try texts[0].write(to: one, atomically: true, encoding: .utf8)
    func llamaEmbedding(_ file: URL, batch: Int) async throws -> Double {
      let clock = ContinuousClock()
      let start = clock.now
      let output = try await ChildProcess(
        executable: tool,
        arguments: [
          "-m", embeddingModel, "-t", "\(threads)", "-c", "\(batch)", "-b", "\(batch)", "-ub", "\(batch)",
          "--embd-separator", "<#sep#>", "--embd-output-format", "array", "-f", file.path,
        ]
      ).run()
      guard output.status == 0 else {
        throw BenchmarkError.toolFailed(tool: "llama-embedding", reason: String(output.standardError.suffix(300)))
      }
      return (clock.now - start).seconds
    }
    var ours = Samples(samples: [])
    var theirs = Samples(samples: [])
    var theirsSameBatch = Samples(samples: [])
    for _ in 0..<3 {
      let clock = ContinuousClock()
      let start = clock.now
      _ = try await embedder.embed(texts)
      ours.samples.append((clock.now - start).seconds)
      let load = try await llamaEmbedding(one, batch: 2048)
      theirs.samples.append(max(0.001, try await llamaEmbedding(all, batch: 2048) - load))
      let loadSame = try await llamaEmbedding(one, batch: 512)
      theirsSameBatch.samples.append(max(0.001, try await llamaEmbedding(all, batch: 512) - loadSame))
    }
    return (ours, theirs, theirsSameBatch)
  }

  /// p50 and p95 of top-10 searches over `size` chunks: the vector scan alone, the whole hybrid search (the
  /// query embedded, both searches, fusion, chunks read), and sqlite-vec's `vec0` on the same vectors.
  private func latency(
    size: Int, queries: [String], embedder: LocalEmbedder, folder: URL
  ) async throws -> [Latency] {
    let dimension = 384
    var random = SeededRandom(seed: UInt64(size))
    var vectors = [Float](repeating: 0, count: size * dimension)
    for row in 0..<size {
      var norm: Float = 0
      for column in 0..<dimension {
        let value = Float.random(in: -1...1, using: &random)
        vectors[row * dimension + column] = value
        norm += value * value
      }
      let scale = 1 / norm.squareRoot()
      for column in 0..<dimension { vectors[row * dimension + column] *= scale }
    }
    var index = VectorIndex(dimension: dimension)
    index.insert(
      rowIDs: (0..<size).map { Int64($0 + 1) }, collections: Array(repeating: .documents, count: size),
      values: vectors)
    let probes = (0..<200).map { probe in
      Array(vectors[(probe * 37 % size) * dimension..<(probe * 37 % size + 1) * dimension])
    }
    let clock = ContinuousClock()
    var scan = Samples(samples: [])
    for probe in probes {
      let start = clock.now
      _ = index.nearest(to: probe, k: 10)
      scan.samples.append((clock.now - start).seconds * 1000)
    }
    var results = [
      Latency(chunks: size, method: "vector scan (SIMD, in memory)", p50: scan.median, p95: scan.percentile(95))
    ]

    // A real index of this size: the labelled set's chunk texts repeated, each with the random vector.
    let database = try HearthDatabase(path: folder.appendingPathComponent("latency-\(size).sqlite").path)
    let texts = try HearthDatabase(path: folder.appendingPathComponent("quality.sqlite").path).memoryChunkTexts()
    let perSource = 500
    for first in stride(from: 0, to: size, by: perSource) {
      let rows = first..<min(first + perSource, size)
      let chunks = rows.map { row -> EmbeddedChunk in
        let text = texts[row % texts.count].text
        return EmbeddedChunk(
          chunk: MemoryChunk(
            id: "c\(row)", sourceID: "s\(first)", ordinal: row - first, heading: "", text: text, start: 0,
            end: text.utf8.count, tokenCount: 0),
          vector: Array(vectors[row * dimension..<(row + 1) * dimension]))
      }
      try database.replaceMemorySource(
        MemorySource(
          id: "s\(first)", collection: .documents, title: "s\(first)", location: "s\(first)", contentHash: "",
          byteCount: 0),
        chunkIDs: chunks.map(\.chunk.id), added: chunks)
    }
    try database.setMemoryIndexIdentity(try await embedder.prepare().identity)
    let memory = MemoryIndex(database: database, embedder: embedder)
    try await memory.prepare()
    var keyword = Samples(samples: [])
    var pruned = Samples(samples: [])
    var reads = Samples(samples: [])
    for (index, query) in queries.enumerated() {
      let start = clock.now
      _ = try database.memoryKeywordSearch(KeywordQuery.terms(of: query), limit: 40)
      keyword.samples.append((clock.now - start).seconds * 1000)
      let pruning = clock.now
      let informative = try KeywordQuery.informative(
        query, limit: MemoryIndex.commonWordLimit(chunks: size), counts: database.memoryTermCounts)
      _ = try database.memoryKeywordSearch(informative, limit: 40)
      pruned.samples.append((clock.now - pruning).seconds * 1000)
      let rows = (0..<40).map { Int64(($0 * 7919 + index * 104_729) % size + 1) }
      let begin = clock.now
      _ = try database.memoryChunks(rowIDs: rows)
      reads.samples.append((clock.now - begin).seconds * 1000)
    }
    results.append(
      Latency(
        chunks: size, method: "keyword search alone, every word (FTS5 BM25)", p50: keyword.median,
        p95: keyword.percentile(95)))
    results.append(
      Latency(
        chunks: size, method: "keyword search alone, the rarest words (as Hearth searches)", p50: pruned.median,
        p95: pruned.percentile(95)))
    results.append(
      Latency(
        chunks: size, method: "reading 40 chunks with their sources", p50: reads.median, p95: reads.percentile(95)))
    var hybrid = Samples(samples: [])
    for query in queries {
      let start = clock.now
      _ = try await memory.search(query, options: RetrievalOptions(k: 10))
      hybrid.samples.append((clock.now - start).seconds * 1000)
    }
    results.append(
      Latency(
        chunks: size, method: "hybrid search (query embedded, vector + BM25, fused, chunks read)", p50: hybrid.median,
        p95: hybrid.percentile(95)))
    if let sqliteVec {
      results.append(
        try await sqliteVecLatency(vectors: vectors, probes: probes, size: size, library: sqliteVec, folder: folder))
    }
    return results
  }

  /// sqlite-vec's brute-force `vec0` table on the same vectors and probes, through Debian's Python and the
  /// same system SQLite Hearth links.
  private func sqliteVecLatency(
    vectors: [Float], probes: [[Float]], size: Int, library: String, folder: URL
  ) async throws -> Latency {
    let data = folder.appendingPathComponent("vectors-\(size).f32")
    let probeFile = folder.appendingPathComponent("probes-\(size).f32")
    try vectors.littleEndianBytes.write(to: data)
    try probes.flatMap { $0 }.littleEndianBytes.write(to: probeFile)
    let script = folder.appendingPathComponent("sqlite_vec_latency.py")
    try SQLiteVecScript.source.write(to: script, atomically: true, encoding: .utf8)
    let output = try await ChildProcess(
      executable: "/usr/bin/python3",
      arguments: [
        script.path, library, data.path, probeFile.path, "384",
        folder.appendingPathComponent("vec-\(size).sqlite").path,
      ]
    ).run()
    let numbers = output.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard output.status == 0, numbers.count == 2 else {
      throw BenchmarkError.toolFailed(
        tool: "sqlite-vec", reason: String((output.standardError + output.standardOutput).suffix(300)))
    }
    return Latency(chunks: size, method: "sqlite-vec vec0 (MATCH … AND k = 10)", p50: numbers[0], p95: numbers[1])
  }
}

extension Samples {
  /// The value below which `percent` of the samples fall (nearest rank).
  public func percentile(_ percent: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}

/// The measuring script for sqlite-vec, run by the system's Python 3 (whose `sqlite3` module loads
/// extensions, unlike some builds): it loads `vec0`, inserts the vectors, and times 10-nearest queries.
enum SQLiteVecScript {
  static let source = """
    import sqlite3, sys, time
    library, data, probes, dimension, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    row = dimension * 4
    blob = open(data, "rb").read()
    queries = open(probes, "rb").read()
    db = sqlite3.connect(path)
    db.enable_load_extension(True)
    db.load_extension(library)
    db.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{dimension}])")
    db.executemany("INSERT INTO v(rowid, embedding) VALUES (?, ?)",
                   ((i + 1, blob[i * row:(i + 1) * row]) for i in range(len(blob) // row)))
    db.commit()
    times = []
    for i in range(len(queries) // row):
        start = time.perf_counter()
        db.execute("SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 10",
                   (queries[i * row:(i + 1) * row],)).fetchall()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(times[len(times) // 2], times[max(0, -(-95 * len(times) // 100) - 1)])
    """
}
