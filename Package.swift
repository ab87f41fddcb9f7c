// swift-tools-version: 6.1
import Foundation
import PackageDescription

// llama.cpp is built by `scripts/setup-llama.sh` into a cache prefix; the loader must find its shared
// libraries there at run time, and SwiftPM drops the rpath that pkg-config reports.
let llamaPrefix =
  ProcessInfo.processInfo.environment["HEARTH_LLAMA_PREFIX"]
  ?? "\(FileManager.default.homeDirectoryForCurrentUser.path)/.cache/hearth/llama.cpp-0.3.36"
let llamaRpath: [LinkerSetting] = [
  .unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "\(llamaPrefix)/lib"])
]
// whisper.cpp is built by `scripts/setup-whisper.sh` into its own prefix, as one library with a private ggml.
let whisperPrefix =
  ProcessInfo.processInfo.environment["HEARTH_WHISPER_PREFIX"]
  ?? "\(FileManager.default.homeDirectoryForCurrentUser.path)/.cache/hearth/whisper.cpp-1.8.5"
let whisperRpath: [LinkerSetting] = [
  .unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "\(whisperPrefix)/lib"])
]
// sherpa-onnx (text to speech) and its ONNX Runtime are unpacked by `scripts/setup-voice.sh` into a prefix of their own.
let sherpaPrefix =
  ProcessInfo.processInfo.environment["HEARTH_SHERPA_PREFIX"]
  ?? "\(FileManager.default.homeDirectoryForCurrentUser.path)/.cache/hearth/sherpa-onnx-2.0.1"
let speechRpaths: [LinkerSetting] =
  whisperRpath + [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "\(sherpaPrefix)/lib"])]
let nativeRpaths = llamaRpath + speechRpaths

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The libFuzzer program for every parser that takes outside bytes; `make fuzz` builds it with `-sanitize=fuzzer`,
/// an ordinary build gives it a main that lists its targets.
let fuzzTargets: [Target] = [
  .executableTarget(
    name: "HearthFuzz",
    dependencies: [
      "HearthActions", "HearthCore", "HearthDAV", "HearthForms", "HearthInterchange", "HearthSpeech", "LlamaKit",
      .product(name: "NIOCore", package: "swift-nio"),
    ],
    path: "Fuzz/HearthFuzz", swiftSettings: strictSettings, linkerSettings: nativeRpaths)
]

/// The phone's own pieces, pure (no native library): HTTPS credentials, QR codes, Web Push messages, and their
/// tests. Added after the package is made, to keep its one expression small enough to type-check.
let phoneTargets: [Target] = [
  // HTTPS for `hearth serve`: the profile's own certificate authority and the server's certificate.
  .target(
    name: "HearthTLS",
    dependencies: [
      .product(name: "X509", package: "swift-certificates"),
      .product(name: "SwiftASN1", package: "swift-asn1"),
      .product(name: "Crypto", package: "swift-crypto"),
    ],
    swiftSettings: strictSettings
  ),
  // Web Push: messages encrypted for one subscription (RFC 8291) and signed requests (VAPID, RFC 8292).
  .target(
    name: "HearthPush", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
    swiftSettings: strictSettings),
  // QR code symbols (ISO/IEC 18004), drawn as SVG: an address a phone's camera opens.
  .target(name: "HearthQR", swiftSettings: strictSettings),
  .testTarget(
    name: "HearthTLSTests",
    dependencies: [
      "HearthTLS", .product(name: "X509", package: "swift-certificates"),
      .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto"),
    ],
    swiftSettings: strictSettings
  ),
  .testTarget(name: "HearthQRTests", dependencies: ["HearthQR"], swiftSettings: strictSettings),
  .testTarget(
    name: "HearthPushTests",
    dependencies: ["HearthPush", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strictSettings),
]

let package = Package(
  name: "Hearth",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "hearth", targets: ["hearth"]),
    .library(name: "LlamaKit", targets: ["LlamaKit"]),
    .library(name: "HearthSpeech", targets: ["HearthSpeech"]),
    .library(name: "HearthOCR", targets: ["HearthOCR"]),
    .library(name: "HearthCore", targets: ["HearthCore"]),
    .library(name: "HearthStore", targets: ["HearthStore"]),
    .library(name: "HearthInterchange", targets: ["HearthInterchange"]),
    .library(name: "HearthDAV", targets: ["HearthDAV"]),
    .library(name: "HearthActions", targets: ["HearthActions"]),
    .library(name: "HearthMemory", targets: ["HearthMemory"]),
    .library(name: "HearthEngine", targets: ["HearthEngine"]),
    .library(name: "HearthForms", targets: ["HearthForms"]),
    .library(name: "HearthMCP", targets: ["HearthMCP"]),
    .library(name: "HearthServer", targets: ["HearthServer"]),
    .library(name: "HearthBench", targets: ["HearthBench"]),
    .library(name: "HearthBackup", targets: ["HearthBackup"]),
    .library(name: "HearthTLS", targets: ["HearthTLS"]),
    .library(name: "HearthQR", targets: ["HearthQR"]),
    .library(name: "HearthPush", targets: ["HearthPush"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
    .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
  ],
  targets: [
    .systemLibrary(name: "CLlama", pkgConfig: "llama"),
    .target(
      name: "HearthCore",
      swiftSettings: strictSettings
    ),
    .target(
      name: "LlamaKit",
      dependencies: [
        "CLlama",
        "HearthCore",
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: llamaRpath
    ),
    // Speech: the only importer of whisper.cpp's C API (recognition), sherpa-onnx's and espeak-ng's (the voice),
    // in LlamaKit's manner.
    .systemLibrary(name: "CWhisper", pkgConfig: "hearth-whisper"),
    .systemLibrary(name: "CSherpa", pkgConfig: "hearth-sherpa"),
    .systemLibrary(name: "CEspeak", pkgConfig: "espeak-ng"),
    .target(
      name: "HearthSpeech",
      dependencies: [
        "CWhisper",
        "CSherpa",
        "CEspeak",
        "HearthCore",
      ],
      swiftSettings: strictSettings,
      linkerSettings: speechRpaths
    ),
    // Text in images: the only importer of Tesseract's C API (Debian's libtesseract-dev and tesseract-ocr-eng).
    .systemLibrary(name: "CTesseract", pkgConfig: "tesseract"),
    .target(
      name: "HearthOCR",
      dependencies: [
        "CTesseract",
        "HearthCore",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HearthStore",
      dependencies: [
        "HearthCore",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strictSettings
    ),
    // Standard file formats for the user's data: iCalendar, vCard, Markdown with front matter.
    .target(
      name: "HearthInterchange",
      dependencies: [
        "HearthCore",
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: strictSettings
    ),
    // WebDAV, CalDAV and CardDAV as a client speaks them: discovery, listings, sync reports and safe writes,
    // over a transport the caller gives (the engine's is AsyncHTTPClient).
    .target(
      name: "HearthDAV",
      swiftSettings: strictSettings
    ),
    // Action blocks: their specs, validation, the grammar that constrains them and the prompt that teaches them.
    .target(
      name: "HearthActions",
      dependencies: ["HearthCore"],
      swiftSettings: strictSettings
    ),
    // Memory: texts cut into chunks, embedded, stored and found again by meaning and by words.
    .target(
      name: "HearthMemory",
      dependencies: ["HearthCore", "HearthStore"],
      swiftSettings: strictSettings
    ),
    // The backup file: a profile's files streamed through zlib, sealed in authenticated frames under a key
    // derived from a passphrase (scrypt), and read back with every byte checked. Knows files, not the profile.
    .target(
      name: "HearthBackup",
      dependencies: [
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HearthEngine",
      dependencies: [
        "HearthPush",
        "HearthTLS",
        "HearthActions",
        "HearthBackup",
        "HearthMemory",
        "HearthCore",
        "HearthDAV",
        "HearthInterchange",
        "HearthOCR",
        "HearthSpeech",
        "HearthStore",
        "LlamaKit",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strictSettings
    ),
    // multipart/form-data bodies read whole, apart from the server so the reader is fuzzed on its own.
    .target(
      name: "HearthForms",
      dependencies: [.product(name: "NIOCore", package: "swift-nio")],
      swiftSettings: strictSettings
    ),
    // The Model Context Protocol: Hearth's data and actions as tools for other assistants, under Hearth's consent
    // rules, on any MCP transport (stdio for `hearth mcp`, streamable HTTP behind `hearth serve`).
    .target(
      name: "HearthMCP",
      dependencies: [
        "HearthActions",
        "HearthCore",
        "HearthEngine",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MCP", package: "swift-sdk"),
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "HearthServer",
      dependencies: [
        "HearthCore",
        "HearthDAV",
        "HearthTLS",
        "HearthQR",
        "HearthMCP",
        "HearthMemory",
        "HearthEngine",
        "HearthInterchange",
        "HearthOCR",
        "HearthSpeech",
        "HearthStore",
        "HearthForms",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      resources: [.copy("Web")],
      swiftSettings: strictSettings
    ),
    // The measuring kit: Hearth against llama.cpp's own tools. It may reach below the engine (LlamaKit)
    // because part of what it measures is the generation path itself.
    .target(
      name: "HearthBench",
      dependencies: [
        "HearthActions",
        "HearthDAV",
        "HearthMemory",
        "HearthCore",
        "HearthEngine",
        "HearthServer",
        "HearthSpeech",
        "HearthStore",
        "LlamaKit",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
    .executableTarget(
      name: "hearth",
      dependencies: [
        "HearthActions",
        "HearthMemory",
        "HearthBench",
        "HearthCore",
        "HearthEngine",
        "HearthInterchange",
        "HearthMCP",
        "HearthServer",
        "HearthSpeech",
        "HearthStore",
        "HearthTLS",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
  ] + fuzzTargets + [
    .target(
      name: "HearthTestSupport",
      dependencies: ["HearthCore"],
      path: "Tests/HearthTestSupport",
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthCoreTests",
      dependencies: ["HearthCore", .product(name: "PropertyBased", package: "swift-property-based")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthActionsTests",
      dependencies: [
        "HearthActions", "HearthCore", .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthInterchangeTests",
      dependencies: [
        "HearthInterchange", "HearthCore", "HearthTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      resources: [.copy("Fixtures")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthDAVTests",
      dependencies: ["HearthDAV"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthBackupTests",
      dependencies: ["HearthBackup"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthOCRTests",
      dependencies: ["HearthOCR", "HearthCore"],
      resources: [.copy("Fixtures")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "LlamaKitTests",
      dependencies: ["LlamaKit", "HearthCore", "HearthTestSupport"],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
    .testTarget(
      name: "HearthSpeechTests",
      dependencies: ["HearthSpeech", "HearthCore", "HearthTestSupport"],
      swiftSettings: strictSettings,
      linkerSettings: speechRpaths
    ),
    .testTarget(
      name: "HearthMemoryTests",
      dependencies: [
        "HearthMemory", "HearthStore", "HearthCore", "HearthTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      // The labelled retrieval set, read by path (RetrievalQualityTests, with the real embedder, sits in the
      // engine's tests).
      exclude: ["Fixtures"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthMCPTests",
      dependencies: [
        "HearthMCP", "HearthEngine", "HearthCore", "HearthTestSupport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MCP", package: "swift-sdk"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
    .testTarget(
      name: "HearthStoreTests",
      dependencies: [
        "HearthStore", "HearthCore", "HearthTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthEngineTests",
      dependencies: [
        "HearthEngine", "HearthActions", "HearthBench", "HearthStore", "HearthInterchange", "LlamaKit", "HearthCore",
        "HearthDAV", "HearthTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
    .testTarget(
      name: "HearthServerTests",
      dependencies: [
        "HearthServer", "HearthMCP", "HearthEngine", "HearthBackup", "HearthSpeech", "HearthStore", "HearthCore",
        "LlamaKit", "HearthTLS",
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        "HearthTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
    .testTarget(
      name: "HearthFormsTests",
      dependencies: ["HearthForms", .product(name: "NIOCore", package: "swift-nio")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HearthCLITests",
      dependencies: ["HearthTestSupport", "HearthStore", "HearthCore", "HearthSpeech"],
      swiftSettings: strictSettings,
      linkerSettings: nativeRpaths
    ),
  ],
  swiftLanguageModes: [.v6]
)

package.targets += phoneTargets

// `make check` (HEARTH_PURE=1, in its own build folder): only the modules that need no native library — no
// llama.cpp, whisper.cpp, sherpa-onnx, espeak-ng or Tesseract — and their tests, so the pure logic builds and is
// tested in seconds on a machine where set-up never ran. The same manifest, so the two can never disagree.
if ProcessInfo.processInfo.environment["HEARTH_PURE"] == "1" {
  let pureModules: Set<String> = [
    "HearthCore", "HearthStore", "HearthInterchange", "HearthActions", "HearthMemory", "HearthForms",
    "HearthDAV", "HearthBackup", "HearthTLS", "HearthQR", "HearthPush", "HearthTestSupport",
  ]
  let pureTests: Set<String> = [
    "HearthCoreTests", "HearthStoreTests", "HearthInterchangeTests", "HearthActionsTests", "HearthMemoryTests",
    "HearthFormsTests", "HearthDAVTests", "HearthBackupTests", "HearthTLSTests", "HearthQRTests", "HearthPushTests",
  ]
  let purePackages = [
    "GRDB.swift", "Yams", "swift-nio", "swift-property-based", "swift-crypto", "compress-nio", "swift-certificates",
    "swift-asn1",
  ]
  package.targets = package.targets.filter { pureModules.contains($0.name) || pureTests.contains($0.name) }
  package.products = package.products.filter { product in
    product.name != "hearth" && pureModules.contains(product.name)
  }
  package.dependencies = package.dependencies.filter { dependency in
    guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
    return purePackages.contains { location.hasSuffix("/\($0)") }
  }
}
