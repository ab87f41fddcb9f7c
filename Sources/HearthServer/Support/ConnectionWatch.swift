import Hummingbird
import NIOCore

/// A request context that knows its connection, so that work done before any byte of the response is
/// written can still learn that the client has gone.
protocol ChannelRequestContext: RequestContext {
  var channel: any Channel { get }
}

/// The server's request context: Hummingbird's basics plus the connection.
/// A request context that knows the client's address, for limits kept per client.
protocol PeerAddressContext {
  /// The client's IP address, when the request came over a socket.
  var peerAddress: String? { get }
}

struct HearthRequestContext: ChannelRequestContext, PeerAddressContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }

  var peerAddress: String? { channel.remoteAddress?.ipAddress }
}

/// Notices the client's side of a connection closing. The server keeps reading while a request is
/// handled, and it allows half-closed connections, so a client that hangs up shows here as the input
/// closing long before any write could fail.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = Any

  private var departure: EventLoopPromise<Void>?

  /// Completes when the client has gone; only valid once the handler is in a pipeline.
  var departed: EventLoopFuture<Void>? { departure?.futureResult }

  func handlerAdded(context: ChannelHandlerContext) {
    departure = context.eventLoop.makePromise(of: Void.self)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    markDeparted()
  }

  func channelInactive(context: ChannelHandlerContext) {
    markDeparted()
    context.fireChannelInactive()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .inputClosed = event as? ChannelEvent { markDeparted() }
    context.fireUserInboundEventTriggered(event)
  }

  private func markDeparted() {
    departure?.succeed()
    departure = nil
  }
}

enum ConnectionWatch {
  /// Runs `work`, cancelling it if the client leaves first. A whole-answer request writes nothing until
  /// the answer is done, so without this a client that gave up would keep the model busy to the end.
  /// - Throws: what `work` throws; `CancellationError` when the client left first.
  static func cancellingOnDeparture<Value: Sendable>(
    of channel: any Channel, _ work: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let task = Task { try await work() }
    let departed = channel.pipeline.handler(type: ClientDepartureHandler.self).flatMap { handler in
      handler.departed ?? channel.eventLoop.makeSucceededVoidFuture()
    }
    departed.whenSuccess { task.cancel() }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }
}
