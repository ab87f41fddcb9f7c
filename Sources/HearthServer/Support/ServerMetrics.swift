import CoreMetrics
import Foundation
import HearthCore
import Logging
import Metrics
import Prometheus

/// The server's numbers for `/metrics`, in Prometheus text: requests, tokens, time to first token,
/// tokens per second and queue depth; each generation's figures also go to the log. Numbers only; no
/// content ever reaches a metric, its labels or the log line.
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let logger: Logger

  init(logger: Logger) {
    self.logger = logger
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.defaultDurationHistogramBuckets = [
      .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
      .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
    ]
    self.factory = factory
  }

  /// Counts a finished request by route and status class.
  func recordRequest(route: String, status: Int) {
    Counter(
      label: "hearth_http_requests_total", dimensions: [("route", route), ("status", "\(status / 100)xx")],
      factory: factory
    )
    .increment()
  }

  /// Records one generation's figures.
  func recordGeneration(
    api: String, promptTokens: Int, generatedTokens: Int, timeToFirstToken: Duration?, tokensPerSecond: Double
  ) {
    Counter(label: "hearth_prompt_tokens_total", dimensions: [("api", api)], factory: factory).increment(
      by: promptTokens)
    Counter(label: "hearth_generated_tokens_total", dimensions: [("api", api)], factory: factory).increment(
      by: generatedTokens)
    if let timeToFirstToken {
      Timer(label: "hearth_time_to_first_token_seconds", dimensions: [("api", api)], factory: factory)
        .recordNanoseconds(Int64(timeToFirstToken.seconds * 1e9))
    }
    if tokensPerSecond > 0 {
      Gauge(label: "hearth_generation_tokens_per_second", dimensions: [("api", api)], factory: factory).record(
        tokensPerSecond)
    }
    logger.info(
      "generation",
      metadata: [
        "api": "\(api)", "prompt_tokens": "\(promptTokens)", "generated_tokens": "\(generatedTokens)",
        "first_token_ms": "\(timeToFirstToken.map { "\($0.milliseconds.rounded())" } ?? "-")",
        "tokens_per_second": "\((tokensPerSecond * 10).rounded() / 10)",
      ])
  }

  /// Sets the number of requests running or waiting for the model. `/metrics` sets it from the queue
  /// as it answers, so the gauge is always current when read and the requests themselves never touch it.
  func recordQueueDepth(_ depth: Int) {
    Gauge(label: "hearth_queue_depth", factory: factory).record(depth)
  }

  /// The Prometheus text exposition.
  func exposition() -> String { registry.emitToString() }
}
