// swift-tools-version: 6.2
import PackageDescription

/// Every Cove target builds in Swift 6 language mode with strict concurrency and treats warnings as errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error)
]

let package = Package(
    name: "Cove",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CoveCore", targets: ["CoveCore"]),
        .library(name: "CoveGStreamer", targets: ["CoveGStreamer"]),
        .library(name: "CoveGStreamerEngine", targets: ["CoveGStreamerEngine"]),
        .library(name: "CoveHLS", targets: ["CoveHLS"]),
        .library(name: "CoveStreaming", targets: ["CoveStreaming"]),
        .library(name: "CoveText", targets: ["CoveText"]),
        .library(name: "CoveSSAI", targets: ["CoveSSAI"]),
        .library(name: "CoveXML", targets: ["CoveXML"]),
        .library(name: "CoveDASH", targets: ["CoveDASH"]),
        .library(name: "CoveNetworking", targets: ["CoveNetworking"]),
        .library(name: "CovePlaybackService", targets: ["CovePlaybackService"]),
        .library(name: "CoveTesting", targets: ["CoveTesting"]),
        .library(name: "CoveTestSupport", targets: ["CoveTestSupport"]),
        .library(name: "CoveTestServers", targets: ["CoveTestServers"]),
        .library(name: "CoveServer", targets: ["CoveServer"]),
        .library(name: "CovePlayerUI", targets: ["CovePlayerUI"]),
        .library(name: "CovePlayerControls", targets: ["CovePlayerControls"]),
        .library(name: "CovePlayerView", targets: ["CovePlayerView"]),
        .library(name: "CoveMPRIS", targets: ["CoveMPRIS"]),
        .library(name: "CoveOffline", targets: ["CoveOffline"]),
        .library(name: "CoveAnalytics", targets: ["CoveAnalytics"]),
        .library(name: "CoveMonitoring", targets: ["CoveMonitoring"]),
        .library(name: "CoveReport", targets: ["CoveReport"]),
        .executable(name: "cove", targets: ["cove"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // AES-128 segment decryption (AES._CBC in _CryptoExtras). 3.12.3 is the floor; the graph already
        // resolves 4.x (swift-certificates, swift-nio-extras), whose CBC runs BoringSSL over whole buffers.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The offline store's index (downloads, files with their SHA-256, keys): SQLite in WAL mode, one
        // transaction per finished file, so a process killed at any moment leaves a consistent index.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The test kit's rights-checking catalog signs and verifies Playback Rights JWTs (HS256) with it;
        // Cove itself only reads a token's claims and never needs a JWT library.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // Monitoring: QoE figures as swift-metrics metrics (the app picks the backend), and the Prometheus
        // exposition `cove monitor --prometheus` serves.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Documentation: `make docs` builds the DocC catalogs of the public modules (a command plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The QoE report's page is a Mustache template (no dependencies of its own; Hummingbird's project).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "CoveCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The byte checks every text parser shares (UTF-8, NUL, BOM, error lines): package-internal, no product.
        .target(
            name: "CoveInput",
            swiftSettings: strict
        ),
        .target(
            name: "CoveHLS",
            dependencies: ["CoveInput"],
            swiftSettings: strict
        ),
        .target(
            name: "CoveStreaming",
            dependencies: [
                "CoveCore", "CoveHLS", "CoveDASH", "CoveText", "CoveNetworking", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CoveText",
            dependencies: ["CoveCore", "CoveInput", "CoveXML", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "CoveSSAI",
            dependencies: ["CoveCore", "CoveInput", "CoveXML", "CoveText", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The byte guard and bounded tree builder in front of Foundation's XMLParser (libxml2 on Linux),
        // shared by every XML format Cove reads: VMAP/VAST (CoveSSAI) and the DASH MPD (CoveStreaming).
        .target(
            name: "CoveXML",
            dependencies: ["CoveInput"],
            swiftSettings: strict
        ),
        // The pure DASH MPD parser (as CoveHLS is for playlists): bytes in, values or typed errors out.
        .target(
            name: "CoveDASH",
            dependencies: ["CoveInput", "CoveXML"],
            swiftSettings: strict
        ),
        .target(
            name: "CoveNetworking",
            dependencies: [
                "CoveCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CovePlaybackService",
            dependencies: ["CoveCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "CovePlayerUI",
            dependencies: ["CoveCore"],
            swiftSettings: strict
        ),
        // Downloads (the seed's offline video manager): the streaming engine's loaders write into a store on
        // disk indexed with GRDB; offline playback reads it back through `LocalResources` (`cove-offline:`).
        .target(
            name: "CoveOffline",
            dependencies: [
                "CoveCore", "CoveStreaming", "CoveHLS", "CoveDASH", "CoveText", "CovePlaybackService", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Brightcove analytics (Data Collection API events, a persistent bounded queue, delivery).
        .target(
            name: "CoveAnalytics",
            dependencies: ["CoveCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-video-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // XCB for programs that open X11 windows of their own to embed the video in (tests, the example).
        .systemLibrary(
            name: "CXCB",
            providers: [.apt(["libxcb1-dev"])]
        ),
        .target(
            name: "CCoveGst",
            dependencies: ["CGStreamer"],
            // XCB reads the size of an app's window the video is embedded in (errors come back as values,
            // where Xlib's default handler would exit the process on a window that went away).
            linkerSettings: [.linkedLibrary("xcb"), .linkedLibrary("X11")]
        ),
        // The engine room: GStreamer demuxes, decodes and renders what it reads or is fed. No
        // CoveStreaming: a producer above it (Cove's streaming) pushes the segments in.
        .target(
            name: "CoveGStreamerEngine",
            dependencies: ["CoveCore", "CoveText", "CCoveGst", "CGStreamer", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // What apps use: the engine room with Cove's streaming in front (`GStreamerEngine`).
        .target(
            name: "CoveGStreamer",
            dependencies: ["CoveCore", "CoveGStreamerEngine", "CoveStreaming", "CoveText", "CoveNetworking", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The test kit, split by what it needs: fakes for an app's unit tests (CoveCore and swift-log only),
        // servers and fixture media (Hummingbird, NIOSSL, jwt-kit, ffmpeg at run time), and CoveTesting, both in one import.
        .target(
            name: "CoveTestSupport",
            dependencies: ["CoveCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "CoveTesting",
            dependencies: ["CoveTestSupport", "CoveTestServers", "CoveServer"],
            swiftSettings: strict
        ),
        // The embedded servers as a product: the Playback-API catalog server, the sample catalog and the media
        // generator it plays, the media server (files, routes, live simulation, bandwidth), the stream-concurrency
        // and analytics stand-ins, the SSAI title. `cove serve`/`cove demo`, the examples and the tests use it.
        .target(
            name: "CoveServer",
            dependencies: [
                "CoveCore", "CoveStreaming",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        // What exists to break things and look at them: fault injection on the media server, Xvfb, weston,
        // a private D-Bus, X test windows, the output/offline/sprite fixtures.
        .target(
            name: "CoveTestServers",
            dependencies: [
                "CoveCore", "CoveServer", "CoveTestSupport", "CXCB",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // cairo and Pango (through pangocairo): the player view draws its controls with them. On every
        // GStreamer system already (GStreamer's own text overlay uses them).
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        // GIO's GDBus (under GStreamer already): MPRIS on the session bus.
        .systemLibrary(
            name: "CGIO",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // The player view's X11 window (XCB: errors come back as values, never exit the process): creation,
        // events, keysyms, EWMH full screen.
        .target(
            name: "CCoveWindow",
            linkerSettings: [.linkedLibrary("xcb")]
        ),
        // MPRIS2 (org.mpris.MediaPlayer2) over GDBus: GVariant's builders are variadic, so the D-Bus side is C.
        .target(
            name: "CCoveMPRIS",
            dependencies: ["CGIO"]
        ),
        // Media keys and "now playing" on Linux desktops: a controller as an MPRIS2 player.
        .target(
            name: "CoveMPRIS",
            dependencies: ["CoveCore", "CCoveMPRIS", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The seed's PlayerUI drawn on the picture: a window (its own, or inside the app's), controls painted
        // with cairo and Pango into the engine's `VideoOverlay`, pointer and keys hit-tested against them.
        .target(
            name: "CovePlayerView",
            dependencies: [
                "CoveCore", "CovePlayerUI", "CovePlayerControls", "CoveSSAI", "CPangoCairo", "CCoveWindow", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The terminal controls as a component (keys, menus, the bar, screen-reader sentences); `cove play` uses it.
        .target(
            name: "CovePlayerControls",
            dependencies: ["CoveCore", "CovePlayerUI", "CoveSSAI"],
            swiftSettings: strict
        ),
        .target(
            name: "CoveMonitoring",
            dependencies: ["CoveCore", .product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: strict
        ),
        .target(
            name: "CoveReport",
            dependencies: ["CoveCore", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cove",
            dependencies: [
                "CoveAnalytics", "CoveMonitoring", "CoveReport",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "CoveCore", "CoveGStreamer", "CoveServer", "CovePlaybackService", "CoveNetworking", "CoveText", "CoveSSAI", "CovePlayerUI", "CoveOffline",
                "CovePlayerControls", "CovePlayerView", "CoveMPRIS", "CoveStreaming", "CoveHLS", "CoveDASH",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Example apps (built by `make test`, run by its tests).
        .executableTarget(
            name: "EmbedInWindow",
            dependencies: ["CoveCore", "CoveGStreamer", "CovePlayerView", "CXCB"],
            path: "Examples/EmbedInWindow",
            swiftSettings: strict
        ),
        // The example apps' shared back end (the embedded sample catalog and its servers) and the examples,
        // each mirroring one of the seed SDK's sample flows; CLI tests run every one to completion.
        .target(
            name: "ExampleSupport",
            dependencies: [
                "CoveCore", "CoveGStreamer", "CoveNetworking", "CovePlaybackService", "CoveServer", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/ExampleSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "AnalyticsDestination",
            dependencies: ["ExampleSupport", "CoveAnalytics", "CoveCore", "CoveGStreamer", "CoveNetworking", "CovePlaybackService"],
            path: "Examples/AnalyticsDestination", swiftSettings: strict
        ),
        .executableTarget(
            name: "BasicPlayback", dependencies: ["ExampleSupport", "CoveCore", "CoveGStreamer", "CovePlaybackService"], path: "Examples/BasicPlayback",
            swiftSettings: strict),
        .executableTarget(
            name: "CaptionsAndAudioTracks", dependencies: ["ExampleSupport", "CoveCore", "CoveGStreamer", "CoveNetworking", "CoveText"],
            path: "Examples/CaptionsAndAudioTracks",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CustomControls",
            dependencies: ["ExampleSupport", "CoveCore", "CoveGStreamer", "CovePlaybackService", "CovePlayerUI", "CovePlayerControls", "CovePlayerView"],
            path: "Examples/CustomControls",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "OfflinePlayback",
            dependencies: [
                "ExampleSupport", "CoveCore", "CoveGStreamer", "CoveNetworking", "CoveOffline", "CovePlaybackService", "CoveText",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/OfflinePlayback", swiftSettings: strict
        ),
        .executableTarget(
            name: "PlaylistWithBumper", dependencies: ["ExampleSupport", "CoveCore", "CoveGStreamer", "CovePlaybackService"],
            path: "Examples/PlaylistWithBumper", swiftSettings: strict),
        .executableTarget(
            name: "ServerSideAds", dependencies: ["ExampleSupport", "CoveCore", "CoveGStreamer", "CoveNetworking", "CovePlaybackService", "CoveSSAI"],
            path: "Examples/ServerSideAds",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cove-bench",
            dependencies: [
                "CoveCore", "CoveGStreamer", "CoveNetworking", "CoveTesting", "CoveText", "CoveSSAI", "CoveDASH", "CoveXML", "CoveAnalytics", "CCoveGst",
                "CGStreamer", "CovePlayerView", "CovePlayerUI", "CXCB", "CoveStreaming",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CoveBench",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveReportTests",
            dependencies: ["CoveReport", "CoveCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveMonitoringTests",
            dependencies: ["CoveMonitoring", "CoveCore", .product(name: "MetricsTestKit", package: "swift-metrics")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveCoreTests",
            dependencies: ["CoveCore", "CoveTesting", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveGStreamerTests",
            dependencies: [
                "CoveAnalytics", "CoveCore", "CoveGStreamer", "CoveGStreamerEngine", "CoveStreaming", "CoveTesting", "CovePlaybackService", "CoveNetworking",
                "CoveText", "CoveSSAI", "CoveOffline",
                "CoveReport", "CovePlayerView", "CovePlayerControls", "CovePlayerUI", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CovePlaybackServiceTests",
            dependencies: [
                "CoveCore", "CovePlaybackService", "CoveNetworking", "CoveTesting", "CoveGStreamer",
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveCLITests",
            dependencies: ["CoveCore", "CoveTesting", "CoveNetworking", "CoveGStreamer"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveHLSTests",
            dependencies: ["CoveHLS", "CoveTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveStreamingTests",
            dependencies: [
                "CoveStreaming", "CoveHLS", "CoveDASH", "CoveCore", "CoveTesting", .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveDASHTests",
            dependencies: ["CoveDASH", "CoveXML", "CoveTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveTextTests",
            dependencies: ["CoveText", "CoveTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveSSAITests",
            dependencies: ["CoveSSAI", "CoveCore", "CoveText", "CoveTesting", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CovePlayerViewTests",
            dependencies: ["CovePlayerView", "CovePlayerControls", "CovePlayerUI", "CoveCore", "CoveTesting", "CPangoCairo"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CovePlayerUITests",
            dependencies: ["CovePlayerUI", "CoveCore", "CoveTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveMPRISTests",
            dependencies: ["CoveMPRIS", "CoveCore", "CoveTesting", "CoveGStreamer"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveAnalyticsTests",
            dependencies: ["CoveAnalytics", "CoveCore", "CoveTesting", "CoveNetworking", "CovePlaybackService"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveOfflineTests",
            dependencies: [
                "CoveOffline", "CoveAnalytics", "CoveCore", "CoveStreaming", "CoveTesting", "CoveNetworking", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CoveTestingTests",
            dependencies: ["CoveCore", "CoveTesting", "CoveSSAI"],
            swiftSettings: strict
        ),
    ]
)
