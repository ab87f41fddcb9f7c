import HearthStore

/// What other assistants that reach Hearth over MCP may do without asking the user first.
public struct MCPSettings: Sendable, Hashable, Codable {
  /// Whether a creation asked for over MCP runs at once (and can be undone) instead of waiting for the
  /// user's confirmation. Changes and deletions always wait.
  public var allowsCreations: Bool

  public init(allowsCreations: Bool = false) {
    self.allowsCreations = allowsCreations
  }
}

extension Engine {
  private static let mcpSettingsKey = "mcp"

  /// The profile's MCP settings, or the defaults (every change waits for the user).
  public func mcpSettings() throws -> MCPSettings {
    try database.setting(Self.mcpSettingsKey, as: MCPSettings.self) ?? MCPSettings()
  }

  /// Saves the profile's MCP settings.
  public func setMCPSettings(_ settings: MCPSettings) throws {
    try database.setSetting(Self.mcpSettingsKey, to: settings)
  }
}
