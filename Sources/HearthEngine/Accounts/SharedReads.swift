import HearthDAV

/// What one sync run read from a server, shared by the collections that are one calendar there (its events
/// and its to-dos are two collections here): each change listing and each member's body is asked for once.
actor SharedReads {
  private var changes: [String: DAVChanges?] = [:]
  private var listings: [String: [DAVMember]] = [:]
  private var bodies: [String: DAVResource] = [:]

  /// The changes since `token` in the collection at `href`, loaded once per run.
  func changes(
    in href: String, since token: String?, _ load: @Sendable () async throws -> DAVChanges?
  ) async throws -> DAVChanges? {
    let key = DAVPath.normalized(href) + "\n" + (token ?? "")
    if let known = changes[key] { return known }
    let loaded = try await load()
    changes[key] = .some(loaded)
    return loaded
  }

  /// Every member of the collection at `href`, listed once per run.
  func members(in href: String, _ load: @Sendable () async throws -> [DAVMember]) async throws -> [DAVMember] {
    let key = DAVPath.normalized(href)
    if let known = listings[key] { return known }
    let loaded = try await load()
    listings[key] = loaded
    return loaded
  }

  /// The bodies of `hrefs`: those read already this run at the entity tag wanted, the rest fetched; and how
  /// many were fetched now.
  func fetch(
    _ wanted: [DAVMember], _ load: @Sendable ([String]) async throws -> [DAVResource]
  ) async throws -> (resources: [DAVResource], loaded: Int) {
    let missing = wanted.filter { bodies[DAVPath.normalized($0.href)]?.etag != $0.etag }.map(\.href)
    let loaded = missing.isEmpty ? [] : try await load(missing)
    for resource in loaded { bodies[DAVPath.normalized(resource.href)] = resource }
    return (wanted.compactMap { bodies[DAVPath.normalized($0.href)] }, loaded.count)
  }
}
