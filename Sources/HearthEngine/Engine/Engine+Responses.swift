public import HearthStore

extension Engine {
  /// Keeps a response of the Responses API so that a later request can continue from it.
  /// - Throws: `StoreError` when it cannot be written.
  public func storeResponse(_ response: StoredResponse) throws {
    try database.storeResponse(response)
  }

  /// The stored response `id`, if it is kept (30 days, the newest 1,000).
  /// - Throws: `StoreError` when the database cannot be read.
  public func storedResponse(id: String) throws -> StoredResponse? {
    try database.storedResponse(id: id)
  }

  /// Forgets the stored response `id`; returns whether it was kept.
  /// - Throws: `StoreError` when the database cannot be written.
  @discardableResult
  public func deleteStoredResponse(id: String) throws -> Bool {
    try database.deleteStoredResponse(id: id)
  }
}
