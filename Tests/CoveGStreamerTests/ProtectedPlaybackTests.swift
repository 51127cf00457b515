import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveOffline
import CoveServer
import CoveStreaming
import CoveTestServers
import CoveTesting
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// Common Encryption on the real engine: DASH `cenc` and `cbcs` and fMP4 HLS `cbcs` packaged here,
    /// keys from a ClearKey licence server stand-in, decrypted by Cove before GStreamer's demuxer.
    @Suite("Protected content (ClearKey, cenc and cbcs)")
    struct ProtectedPlaybackTests {
        static let licenseToken = "Bearer licence-token-0123456789abcdef"

        /// The protected fixtures served, with a ClearKey licence server that knows both keys.
        struct Served {
            let fixture: ProtectedFixture
            let server: MediaServer
            let license: ClearKeyLicenseServer
            let logs = LogCapture()

            static func start() async throws -> Served {
                let fixture = try await ProtectedFixture.prepare()
                let server = try await MediaServer.start(root: fixture.root)
                let keys = [ProtectedFixture.key, ProtectedFixture.rotationKey].reduce(into: [KeyID: [UInt8]]()) { $0[$1.id] = $1.key }
                return Served(fixture: fixture, server: server, license: ClearKeyLicenseServer(on: server, keys: keys))
            }

            var licenseURL: URL { server.url("license/clearkey") }

            func controller(_ streaming: StreamingConfiguration? = nil, fast: Bool = true) -> PlaybackController {
                var settings = streaming ?? StreamingConfiguration()
                if streaming == nil { settings.decryptionModules = DecryptionModules([ClearKeyModule(licenseURL: licenseURL)]) }
                let configuration = PlaybackControllerConfiguration(
                    progressInterval: .milliseconds(100), videoOutput: .headless, pacing: fast ? .unsynchronized : .realTime,
                    logger: logs.logger(level: .debug))
                let engine = GStreamerEngine(logger: logs.logger(label: "cove.gstreamer", level: .debug), streaming: settings)
                return PlayerSDKManager.shared.makePlaybackController(engine: engine, configuration: configuration)
            }

            func stop() { Task { await server.stop() } }
        }

        /// Each protected asset plays to its end, its frames decoded (a wrong decryption would fail the
        /// decoder or the sample check), with one licence request for video and audio together.
        @Test(arguments: [ProtectedFixture.Asset.dashCENC, .dashCBCS, .hlsCBCS, .hlsCBCSClearKey])
        func protectedContentPlaysToTheEnd(_ asset: ProtectedFixture.Asset) async throws {
            let served = try await Served.start()
            defer { served.stop() }
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(asset.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(try #require(recorder.progress.last) >= .seconds(Double(served.fixture.duration) - 0.5))
            let licences = served.license.requests
            if asset == .hlsCBCS {
                #expect(licences.isEmpty, "identity-format HLS keys come from the key URI, not a licence server")
                #expect(served.server.requests.contains { $0.path.hasSuffix("key.bin") && $0.status == 200 })
            } else {
                #expect(licences.count == 1, "one licence for the video and the audio: \(licences.count)")
                #expect(licences.first?.keyIDs == [ProtectedFixture.key.id])
                let statuses = recorder.events.compactMap { event -> [KeyID: KeyStatus]? in
                    if case .keyStatusesChanged(_, .clearKey, let statuses) = event { return statuses }
                    return nil
                }
                #expect(statuses.first?[ProtectedFixture.key.id] == .usable, "key statuses reach the app: \(statuses)")
            }
        }

        /// The picture of protected content is the clear content's, pixel for pixel: the frame prerolled at
        /// the start and one after a seek, against the clear DASH of the same encode.
        @Test(arguments: [ProtectedFixture.Asset.dashCENC, .dashCBCS])
        func theDecryptedPictureIsTheClearPicture(_ asset: ProtectedFixture.Asset) async throws {
            let served = try await Served.start()
            defer { served.stop() }
            func pictures(_ asset: ProtectedFixture.Asset) async throws -> [String] {
                let controller = served.controller(fast: false)
                let recorder = EventRecorder(controller)
                controller.setVideos([Video(url: served.server.url(asset.rawValue))])
                try await recorder.waitFor(.ready)
                var signatures: [String] = []
                for target in [nil, MediaTime.seconds(6)] {
                    if let target { #expect(await controller.seekAndWait(to: target, tolerance: .zero)) }
                    let png = try #require(try controller.currentSession?.player?.snapshotPNG())
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cove-protected-\(UUID().uuidString).png")
                    try png.write(to: file)
                    defer { try? FileManager.default.removeItem(at: file) }
                    #expect(try await ImageProbe.meanBrightness(ofFile: file.path) > 0.1)
                    signatures.append(try await ImageProbe.signature(ofFile: file.path))
                }
                controller.shutdown()
                #expect(recorder.errors.isEmpty, "\(recorder.errors)")
                return signatures
            }
            let protected = try await pictures(asset)
            let clear = try await pictures(.dashClear)
            #expect(protected == clear, "the decrypted frames differ from the clear ones")
        }

        /// Real time: under a bitrate cap the 240p representation plays; lifting it switches to 720p; a seek
        /// lands; the (clear) WebVTT captions' cues show at their times (a DASH text set, an HLS subtitle rendition).
        @Test(arguments: [ProtectedFixture.Asset.dashCENC, .dashCBCS, .hlsCBCS, .hlsCBCSClearKey])
        func switchesVariantsSeeksAndShowsCaptions(_ asset: ProtectedFixture.Asset) async throws {
            let served = try await Served.start()
            defer { served.stop() }
            let controller = served.controller(fast: false)
            let recorder = EventRecorder(controller)
            controller.setPreferredPeakBitRate(600_000)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(asset.rawValue))])
            try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(2.5) } else { false } }
            controller.setPreferredPeakBitRate(nil)
            try await recorder.waitFor(timeout: .seconds(15)) { if case .variantChanged(_, let change) = $0 { change.to.height == 720 } else { false } }
            let beforeSeek = await recorder.cursor()
            #expect(await controller.seekAndWait(to: .seconds(8.5), tolerance: .zero))
            let mark = await recorder.cursor()
            let landed = try await recorder.waitFor(from: mark) { if case .progress = $0 { true } else { false } }
            if case .progress(_, let position) = landed { #expect(position >= .seconds(8.4) && position < .seconds(10), "\(position)") }
            try await recorder.waitFor(from: beforeSeek, timeout: .seconds(10)) {
                if case .textCuesChanged(_, let c) = $0 { c.cues.contains { $0.text == "Cue 5 at 8s" } } else { false }
            }
            try await recorder.waitFor(.end, timeout: .seconds(20))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(!recorder.lifecycleNames.contains("PlaybackStalled"), "\(recorder.lifecycleNames)")
        }

        /// `cenc` whose segments from the 4th on are under a second key (`seig` sample groups): it plays
        /// through the change.
        @Test func aKeyRotationMidStreamPlaysThrough() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashRotation.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(try #require(recorder.progress.last) >= .seconds(Double(served.fixture.duration) - 0.5))
            // The init segment's pssh names both keys: one licence carries them.
            #expect(
                served.license.requests.map(\.keyIDs) == [[ProtectedFixture.key.id, ProtectedFixture.rotationKey.id]],
                "\(served.license.requests.map(\.keyIDs))")
            let rotated = served.server.requests.contains { $0.path.hasSuffix("chunk-stream0-00005.m4s") || $0.path.hasSuffix("chunk-stream1-00005.m4s") }
            #expect(rotated, "segments under the second key were played")
        }

        /// The rotation asset's init segments without their `pssh` (it becomes padding), and its manifest
        /// with or without its `cenc:pssh`.
        static func servePSSHOnlyIn(manifest keepsManifestPSSH: Bool, _ served: Served) {
            let root = served.fixture.root
            served.server.addRoute(prefix: "/rotation/init-stream") { request in
                guard let data = try? Data(contentsOf: root.appendingPathComponent(String(request.path.dropFirst()))) else {
                    return MediaServerResponse(status: 404, body: Data())
                }
                var bytes = [UInt8](data)
                for index in 0..<(bytes.count - 4) where bytes[index..<(index + 4)].elementsEqual("pssh".utf8) {
                    bytes.replaceSubrange(index..<(index + 4), with: Array("free".utf8))
                }
                return MediaServerResponse(status: 200, contentType: "video/iso.segment", body: Data(bytes))
            }
            guard !keepsManifestPSSH else { return }
            served.server.addRoute(prefix: "/rotation/manifest.mpd") { _ in
                guard let text = try? String(contentsOf: root.appendingPathComponent("rotation/manifest.mpd"), encoding: .utf8) else {
                    return MediaServerResponse(status: 404, body: Data())
                }
                let stripped = text.replacingOccurrences(of: #"<cenc:pssh>[^<]*</cenc:pssh>"#, with: "", options: .regularExpression)
                return MediaServerResponse(status: 200, contentType: "application/dash+xml", body: Data(stripped.utf8))
            }
        }

        /// A rotation whose init segment and manifest name only the first key (no `pssh` anywhere): the
        /// second key's licence is asked for when the first fragment under it arrives, and playback goes on.
        @Test func aKeyTheInitSegmentDidNotNameIsAskedForWhenAFragmentNeedsIt() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            Self.servePSSHOnlyIn(manifest: false, served)
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashRotation.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(
                served.license.requests.map(\.keyIDs) == [[ProtectedFixture.key.id], [ProtectedFixture.rotationKey.id]],
                "\(served.license.requests.map(\.keyIDs))")
        }

        /// The manifest's `cenc:pssh` names both keys of the rotation while the init segments name none:
        /// the first licence asks for both (the second key is never asked for mid-stream).
        @Test func theManifestsPSSHNamesTheKeysForTheFirstLicence() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            Self.servePSSHOnlyIn(manifest: true, served)
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashRotation.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(
                served.license.requests.map(\.keyIDs) == [[ProtectedFixture.key.id, ProtectedFixture.rotationKey.id]],
                "\(served.license.requests.map(\.keyIDs))")
        }

        /// The licence server wants a token: the app's request filter of kind `.license` adds it (media
        /// requests never carry it); without the filter the licence is refused, typed, before playback.
        @Test func theLicenceRequestCarriesTheAppsFilterHeaderAndARefusalIsTyped() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            served.license.requireToken(header: "Authorization", value: Self.licenseToken)
            var streaming = StreamingConfiguration(requestFilters: [.header("Authorization", Self.licenseToken, kinds: [.license])])
            streaming.decryptionModules = DecryptionModules([ClearKeyModule(licenseURL: served.licenseURL)])
            let controller = served.controller(streaming)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashCENC.rawValue))])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            controller.shutdown()
            #expect(served.license.requests.map(\.status) == [200])
            #expect(served.license.requests.first?.headers["authorization"] == Self.licenseToken)
            #expect(served.server.requests.filter { !$0.path.hasPrefix("/license") }.allSatisfy { $0.headers["authorization"] == nil })

            let refused = served.controller()
            let refusedRecorder = EventRecorder(refused)
            refused.isAutoPlay = true
            refused.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashCENC.rawValue))])
            let failure = try await refusedRecorder.waitFor(.fail, timeout: .seconds(30), failOn: [])
            refused.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .keyAuthorizationFailed && error.httpStatus == 403, "\(error) \(refusedRecorder.lifecycleNames)")
            #expect(!refusedRecorder.lifecycleNames.contains("Play"))
            #expect(!served.logs.text.contains("licence-token-0123456789abcdef"), "the licence token appeared in a log line")
        }

        /// A licence whose key does not decrypt the content: a typed `decryptionFailed` naming the key ID,
        /// not a decoder error or noise on screen.
        @Test func aWrongKeyFailsTypedNamingTheKeyID() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            served.license.answerWrongKeys()
            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashCENC.rawValue))])
            let failure = try await recorder.waitFor(.fail, timeout: .seconds(30), failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .decryptionFailed, "\(error)")
            #expect(error.message.contains(ProtectedFixture.key.id.hex), "\(error.message)")
            #expect(!served.logs.text.contains(HexBytes.encode(ProtectedFixture.key.key)), "a key appeared in a log line")
            #expect(!served.logs.text.contains(HexBytes.base64URLEncode(ProtectedFixture.key.key)), "a key appeared in a log line")
        }

        /// Content protected only for key systems no registered module serves fails `drmUnsupported`, naming
        /// them, before any media request.
        @Test func aKeySystemNobodyServesIsDrmUnsupportedBeforeAnyMediaRequest() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            var streaming = StreamingConfiguration()
            streaming.decryptionModules = DecryptionModules()
            let controller = served.controller(streaming)
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([Video(url: served.server.url(ProtectedFixture.Asset.dashCENC.rawValue))])
            let failure = try await recorder.waitFor(.fail, timeout: .seconds(30), failOn: [])
            controller.shutdown()
            let error = try #require(failure.lifecycleEvent?.error)
            #expect(error.code == .drmUnsupported, "\(error)")
            #expect(error.message.contains("ClearKey") && error.message.contains("Widevine"), "\(error.message)")
            #expect(!served.server.requests.contains { $0.path.hasSuffix(".m4s") }, "no media was requested")
        }

        /// A module standing in for a vendor's Widevine CDM: registered before ClearKey, source selection
        /// picks the video's Widevine source over its ClearKey one, the module's licence request goes to
        /// the source's licence URL with the bytes it made, and its key statuses reach the app.
        @Test func aVendorModuleIsChosenForItsKeySystemAndItsKeyStatusesReachTheApp() async throws {
            let served = try await Served.start()
            defer { served.stop() }
            let vendor = VendorStandInModule(keys: [ProtectedFixture.key.id: ProtectedFixture.key.key])
            let vendorRequests = Recorded<Data>()
            served.server.addRoute(prefix: "/license/vendor") { request in
                vendorRequests.append(request.body)
                return MediaServerResponse(status: 200, contentType: "application/octet-stream", body: Data("VENDOR-LICENCE:grant".utf8))
            }
            let modules = DecryptionModules([vendor, ClearKeyModule()])
            var streaming = StreamingConfiguration()
            streaming.decryptionModules = modules
            let policy = SourceSelectionPolicy.capabilities(PlaybackCapabilities(decryptionModules: modules))
            let provider = BasicSessionProvider(options: BasicSessionProviderOptions(sourceSelectionPolicy: policy))
            let configuration = PlaybackControllerConfiguration(
                progressInterval: .milliseconds(100), videoOutput: .headless, pacing: .unsynchronized, logger: served.logs.logger(level: .debug))
            let controller = PlayerSDKManager.shared.makePlaybackController(
                engine: GStreamerEngine(logger: served.logs.logger(label: "cove.gstreamer", level: .debug), streaming: streaming), sessionProvider: provider,
                configuration: configuration)
            let recorder = EventRecorder(controller)
            let url = served.server.url(ProtectedFixture.Asset.dashCENC.rawValue)
            let dash = "application/dash+xml"
            let video = Video(
                sources: [
                    Source(
                        url: url, deliveryMethod: DeliveryType(rawValue: dash),
                        properties: ["key_systems": ["org.w3.clearkey": ["license_url": .string(served.licenseURL.absoluteString)]]]),
                    Source(
                        url: url, deliveryMethod: DeliveryType(rawValue: dash),
                        properties: ["key_systems": ["com.widevine.alpha": ["license_url": .string(served.server.url("license/vendor").absoluteString)]]]),
                ], properties: ["id": "protected"])
            controller.isAutoPlay = true
            controller.setVideos([video])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            let session = try #require(controller.currentSession)
            controller.shutdown()
            #expect(session.source?.keySystems["com.widevine.alpha"] != nil, "the Widevine source was chosen")
            #expect(served.license.requests.isEmpty, "ClearKey's licence server was not asked")
            let bodies = vendorRequests.all
            #expect(bodies.count == 1 && bodies.first.map { String(decoding: $0, as: UTF8.self).hasPrefix("VENDOR-REQUEST:") } == true, "\(bodies)")
            let statuses = recorder.events.compactMap { event -> (KeySystem, [KeyID: KeyStatus])? in
                if case .keyStatusesChanged(_, let system, let statuses) = event { return (system, statuses) }
                return nil
            }
            #expect(statuses.first?.0 == .widevine)
            #expect(statuses.first?.1[ProtectedFixture.key.id] == .usable)
            #expect(statuses.first?.1[VendorStandInModule.restrictedKey] == .outputRestricted)
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        }

        /// A ClearKey title (DASH cenc and fMP4 HLS cbcs) downloads with its persistent licence, kept in the
        /// index only: the copy plays with the origin and the licence server answering nothing, fails typed
        /// once its rental has run out, and plays again after renewal.
        @Test(arguments: [ProtectedFixture.Asset.dashCENC, .hlsCBCS])
        func aProtectedTitleDownloadsWithItsLicencePlaysOfflineExpiresAndRenews(_ asset: ProtectedFixture.Asset) async throws {
            let served = try await Served.start()
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("cove-offline-protected-\(UUID().uuidString)")
            let clock = OfflinePlaybackTests.Setup.Clock()
            var configuration = OfflineConfiguration(now: { clock.now() })
            configuration.streaming.decryptionModules = DecryptionModules([ClearKeyModule(licenseURL: served.licenseURL)])
            let manager = try OfflineVideoManager(
                root: root, transport: AsyncHTTPClientTransport.shared, configuration: configuration,
                logger: served.logs.logger(label: "cove.offline", level: .trace))
            defer {
                Task {
                    await manager.close()
                    await served.server.stop()
                    try? FileManager.default.removeItem(at: root)
                }
            }
            let token = try await manager.requestVideoDownload(
                Video(url: served.server.url(asset.rawValue)),
                parameters: OfflineDownloadParameters(captionLanguages: [], includesImages: false, license: .rental(seconds: 3_600)))
            let status = try #require(await manager.waitUntilSettled(token))
            try #require(status.state == .completed, "\(String(describing: status.error))")
            #expect(served.license.requests.count == (asset == .hlsCBCS ? 0 : 1))
            // No key in any file of the store but the index, nor in a log line.
            let key = Data(ProtectedFixture.key.key)
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = enumerator?.nextObject() as? URL {
                guard !file.lastPathComponent.hasPrefix("index.sqlite"), let data = try? Data(contentsOf: file) else { continue }
                #expect(
                    data.range(of: key) == nil && data.range(of: Data(HexBytes.base64URLEncode(ProtectedFixture.key.key).utf8)) == nil,
                    "a key is in \(file.lastPathComponent)")
            }
            #expect(!served.logs.text.contains(HexBytes.encode(ProtectedFixture.key.key)))
            served.server.forceStatus(503)
            served.server.clearRequestLog()

            let controller = served.controller()
            let recorder = EventRecorder(controller)
            controller.isAutoPlay = true
            controller.setVideos([try manager.videoObject(fromOfflineVideoToken: token)])
            try await recorder.waitFor(.end, timeout: .seconds(60))
            #expect(recorder.errors.isEmpty, "\(recorder.errors)")
            #expect(try #require(recorder.progress.last) >= .seconds(Double(served.fixture.duration) - 0.5))
            #expect(served.server.requests.isEmpty, "offline playback made requests: \(served.server.requests.map(\.path))")

            clock.advance(7_200)
            let cursor = await recorder.cursor()
            controller.setVideos([Video(url: try #require(URL(string: "\(OfflineVideoManager.scheme)://\(token)/master.m3u8")))])
            let failure = try await recorder.waitFor(.fail, from: cursor, failOn: [])
            #expect(failure.lifecycleEvent?.error?.code == .offlineLicenseExpired, "\(String(describing: failure.lifecycleEvent?.error))")
            try manager.renewLicense(token, terms: .rental(seconds: 3_600))
            let renewedCursor = await recorder.cursor()
            controller.setVideos([try manager.videoObject(fromOfflineVideoToken: token)])
            try await recorder.waitFor(.end, from: renewedCursor, timeout: .seconds(60))
            controller.shutdown()
            #expect(served.server.requests.isEmpty)
        }
    }
}

/// Stands in for a vendor's CDM (Widevine): its licence request is its own bytes ("VENDOR-REQUEST:" and
/// the init data's key IDs), it accepts the licence "VENDOR-LICENCE:grant" and then holds the keys of its
/// table, reporting one more key as output-restricted (as a CDM reports an HDCP limit).
final class VendorStandInModule: ContentDecryptionModule, Sendable {
    let name = "Vendor stand-in"
    let keySystems: [KeySystem] = [.widevine]
    let table: [KeyID: [UInt8]]
    static let restrictedKey = KeyID(hex: "0123456789abcdef0123456789abcdef")!

    init(keys: [KeyID: [UInt8]]) { table = keys }

    func makeSession(keySystem: KeySystem, kind: DecryptionSessionKind, configuration: KeySystemConfiguration) throws(DecryptionError) -> any DecryptionSession
    {
        Session(table: table)
    }

    final class Session: DecryptionSession, Sendable {
        let table: [KeyID: [UInt8]]
        let granted = Mutex(false)
        init(table: [KeyID: [UInt8]]) { self.table = table }

        func generateRequest(_ initData: DecryptionInitData) async throws(DecryptionError) -> LicenseMessage? {
            LicenseMessage(body: Data(("VENDOR-REQUEST:" + initData.keyIDs.map(\.hex).joined(separator: ",")).utf8))
        }

        func update(_ response: Data) async throws(DecryptionError) -> [KeyID: KeyStatus] {
            guard String(decoding: response, as: UTF8.self) == "VENDOR-LICENCE:grant" else { throw DecryptionError(.invalidLicense, "not a grant") }
            granted.withLock { $0 = true }
            return keyStatuses
        }

        var keyStatuses: [KeyID: KeyStatus] {
            guard granted.withLock({ $0 }) else { return [:] }
            var statuses = table.mapValues { _ in KeyStatus.usable }
            statuses[VendorStandInModule.restrictedKey] = .outputRestricted
            return statuses
        }

        func decrypt(_ sample: EncryptedSample, in bytes: UnsafeMutableRawBufferPointer) throws(DecryptionError) {
            guard granted.withLock({ $0 }), let key = table[sample.keyID] else { throw DecryptionError(.keyMissing, keyID: sample.keyID, "not granted") }
            try SampleCipher.decrypt(sample, key: key, in: bytes)
        }

        func persistentLicense() -> Data? { nil }
        func load(persistentLicense: Data) throws(DecryptionError) -> [KeyID: KeyStatus] { throw DecryptionError(.unsupported, "no persistence") }
        func close() {}
    }
}
