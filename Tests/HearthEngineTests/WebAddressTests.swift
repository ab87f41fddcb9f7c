import Foundation
import Testing

@testable import HearthEngine

@Suite("Web addresses: the one check every server setting applies")
struct WebAddressTests {
  @Test(
    "http and https addresses with a host are taken, whatever the scheme's case",
    arguments: [
      "http://127.0.0.1:8080/v1", "https://search.example.org", "HTTPS://Example.org/x?q=1", "http://[::1]:9",
    ])
  func taken(text: String) throws {
    let url = try #require(URL(webAddress: text))
    #expect(url.isWebAddress)
    #expect(url.absoluteString == text)
  }

  @Test(
    "anything else is refused: no scheme, another scheme, no host, not a URL",
    arguments: [
      "", "example.org", "ftp://example.org", "file:///etc/passwd", "http://", "https:///path", "http//x",
      "mailto:a@b.c",
    ])
  func refused(text: String) {
    #expect(URL(webAddress: text) == nil)
  }

  @Test("a setting refuses what the check refuses, with the address in its message")
  func settingsUseIt() {
    #expect(throws: RemoteError.self) {
      try RemoteSettings.from(environment: ["HEARTH_REMOTE_URL": "ftp://example.org"])
    }
    #expect((try? RemoteSettings.from(environment: ["HEARTH_REMOTE_URL": "http://127.0.0.1:1"])) != nil)
  }
}
