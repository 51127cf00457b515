import CoveCore
import CoveGStreamer
import CoveNetworking
import CoveSSAI
import CoveTesting
import CoveText
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// The SSAI plugin end to end on the real engine against a served SSAI title (`SSAITitle`): the
    /// stitched stream is pre-roll [0, 4) · content 0–10 · mid-roll of two ads [14, 22) · content
    /// 10–20 · post-roll [32, 36); the VMAP's beacons come back to the server's beacon log.
    @Suite("GStreamer SSAI", .serialized)
    struct SSAIPlaybackTests {
        static let adIDs = ["ad-pre", "ad-mid-1", "ad-mid-2", "ad-post"]
        /// The beacons one play of an ad sends, by event name.
        static let perAdBeacons = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]

        struct Setup {
            let harness: Harness
            let title: SSAITitle
            let controller: PlaybackController
            let recorder: EventRecorder

            func stop() async {
                controller.shutdown()
                await harness.stop()
            }
        }

        static func start(fast: Bool = true, options: SSAISessionProviderOptions = SSAISessionProviderOptions()) async throws -> Setup {
            let harness = try await Harness.start()
            let title = try await SSAITitle.install(on: harness.server)
            var options = options
            // Quick retries, so a failed beacon is retried within the test's time.
            options.beaconPolicy = BeaconSender.Policy(attempts: 3, initialDelay: .milliseconds(50), timeout: .seconds(5))
            let provider = SSAISessionProvider(transport: AsyncHTTPClientTransport.shared, options: options)
            let controller = harness.controller(fast: fast, provider: provider)
            return Setup(harness: harness, title: title, controller: controller, recorder: EventRecorder(controller))
        }

        /// The ad-related events in order, as short names.
        static func adTrace(_ events: [PlaybackEvent]) -> [String] { events.compactMap(\.adTraceLine) }

        static let fullPlay = [
            "WillPauseForAd", "SequenceEnter 0", "AdEnter ad-pre", "AdExit ad-pre", "SequenceExit 0",
            "WillPauseForAd", "SequenceEnter 1", "AdEnter ad-mid-1", "AdExit ad-mid-1", "AdEnter ad-mid-2", "AdExit ad-mid-2", "SequenceExit 1",
            "WillPauseForAd", "SequenceEnter 2", "AdEnter ad-post", "AdExit ad-post", "SequenceExit 2", "End",
        ]

        /// Counts of (ad or break id, event) in the beacon log.
        static func beaconCounts(_ hits: [BeaconHit]) -> [String: Int] {
            hits.reduce(into: [:]) { $0["\($1.adID)/\($1.event)", default: 0] += 1 }
        }

        static func contentProgress(_ events: [PlaybackEvent]) -> [MediaTime] {
            events.compactMap { if case .progress(_, let t) = $0 { t } else { nil } }
        }

        /// At 2× the pre-roll still plays at 1× (its ad time keeps pace with the wall clock) and the content
        /// after it at 2×.
        @Test
        func adsPlayAtNormalSpeedWhileContentPlaysAtTheRate() async throws {
            let s = try await Self.start(fast: false)
            defer { Task { await s.stop() } }
            s.controller.playbackRate = 2
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            let stamped = Recorded<(wall: Double, ad: Double?, content: Double?)>()
            let watcher = Task {
                for await event in s.controller.events {
                    switch event {
                    case .adProgressed(_, let p): stamped.append((Date().timeIntervalSince1970, p.time.seconds, nil))
                    case .progress(_, let t): stamped.append((Date().timeIntervalSince1970, nil, t.seconds))
                    default: break
                    }
                }
            }
            defer { watcher.cancel() }
            try await s.harness.diagnosingFailure {
                try await s.recorder.waitFor(timeout: .seconds(30)) { if case .progress(_, let t) = $0 { t >= .seconds(6) } else { false } }
            }
            func pace(_ samples: [(wall: Double, value: Double)]) -> Double {
                guard let first = samples.first, let last = samples.last, last.wall > first.wall else { return 0 }
                return (last.value - first.value) / (last.wall - first.wall)
            }
            // From 1.5 s into the ad: the break is reported with the first progress, so the pipeline's first
            // moments still ran at the rate it was built with (noted in the issue).
            let ad = stamped.all.compactMap { sample in sample.ad.map { (sample.wall, $0) } }.filter { $0.1 >= 1.5 && $0.1 <= 3.7 }
            let content = stamped.all.compactMap { sample in sample.content.map { (sample.wall, $0) } }.filter { $0.1 >= 1 && $0.1 <= 6 }
            #expect(ad.count >= 4 && content.count >= 5)
            let adPace = pace(ad)
            let contentPace = pace(content)
            #expect(adPace > 0.8 && adPace < 1.25, "the ad plays at 1×: \(adPace)")
            #expect(contentPace > 1.6 && contentPace < 2.4, "the content plays at 2×: \(contentPace)")
        }

        /// A whole play: pre-, mid- and post-roll in order with content-time progress, duration and
        /// cue points, the raw VMAP event, and every beacon received exactly once (the icon's view included).
        @Test func aWholePlayReportsContentTimeAdEventsAndEachBeaconOnce() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let cues: CuePointCollection = [CuePoint(type: "code", position: .seconds(5)), CuePoint(type: "code", position: .seconds(15))]
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(sources: [Source(url: s.title.vmapURL)], cuePoints: cues)])
            try await s.recorder.waitFor(.end, timeout: .seconds(60))
            let session = try #require(s.controller.currentSession?.ssai)
            await session.drainBeacons()
            let events = s.recorder.events

            #expect(Self.adTrace(events) == Self.fullPlay)
            // Duration and progress in content time: 20 s of content in a 36 s stream.
            #expect(s.recorder.duration == .some(.seconds(20)))
            let progress = Self.contentProgress(events)
            #expect(progress.allSatisfy { $0 >= .zero && $0 <= .seconds(20) }, "\(progress)")
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 }, "progress went backwards: \(progress)")
            #expect(progress.last == .seconds(20))
            // Inside the mid-roll the content clock stands at the break's offset.
            if let enter = events.firstIndex(where: { if case .adSequenceEntered(_, let q) = $0 { q.index == 1 } else { false } }),
                let exit = events.firstIndex(where: { if case .adSequenceExited(_, let q) = $0 { q.index == 1 } else { false } })
            {
                let during = Self.contentProgress(Array(events[enter..<exit]))
                #expect(during.allSatisfy { $0 == .seconds(10) }, "\(during)")
            } else {
                Issue.record("no mid-roll in \(Self.adTrace(events))")
            }
            // Cue points fire once each, in content time.
            let passed = s.recorder.passages.flatMap { $0.cuePoints.map(\.position) }
            #expect(passed == [.seconds(5), .seconds(15)])
            // Ad progress is in ad time, within each ad's 4 s.
            let adProgress = events.compactMap { if case .adProgressed(_, let p) = $0 { p } else { nil } }
            #expect(!adProgress.isEmpty)
            #expect(adProgress.allSatisfy { $0.time >= .zero && $0.time <= .seconds(4) }, "\(adProgress.map(\.time))")
            // The raw VMAP is handed to the app once, right after the session starts.
            let vmapEvents = events.compactMap {
                if case .lifecycle(_, .custom(let name, let properties)) = $0, name == SSAIEventName.vmapResponseReceived { properties } else { nil }
            }
            #expect(vmapEvents.count == 1)
            #expect(vmapEvents.first?["vmap"]?.stringValue?.contains("vmap:VMAP") == true)

            // Every beacon exactly once: per ad, per break, and the companion's view for ad-mid-1.
            try await s.title.beaconLog.waitUntil(timeout: .seconds(10), describing: "all beacons") { Self.beaconCounts($0)["ad-post/complete"] == 1 }
            let counts = Self.beaconCounts(s.title.beaconLog.hits)
            for ad in Self.adIDs {
                for event in Self.perAdBeacons { #expect(counts["\(ad)/\(event)"] == 1, "\(ad)/\(event): \(counts)") }
            }
            for id in SSAIVMAP.breakIDs {
                #expect(counts["\(id)/breakStart"] == 1, "\(id): \(counts)")
                #expect(counts["\(id)/breakEnd"] == 1, "\(id): \(counts)")
            }
            #expect(counts["ad-mid-1/companionCreativeView"] == 1)
            // The pre-roll's AdChoices icon is reported as viewed once, when the pre-roll starts.
            #expect(counts["ad-pre/iconView"] == 1, "\(counts)")
            #expect(counts.keys.filter { $0.hasSuffix("/iconView") } == ["ad-pre/iconView"], "\(counts)")
            for event in ["pause", "resume", "skip", "clickTracking"] {
                #expect(!counts.keys.contains { $0.hasSuffix("/\(event)") }, "\(event) fired without cause: \(counts)")
            }
            // Macros are filled in: the pre-roll impression's [CACHEBUSTING] became a number.
            let impression = try #require(s.title.beaconLog.hits(event: "impression", adID: "ad-pre").first)
            #expect(impression.query?.hasPrefix("cb=") == true && impression.query?.contains("[") == false, "\(impression)")
            #expect(!s.recorder.lifecycleNames.contains("Error"), "\(s.recorder.errors)")
        }

        /// The ads delegate and session consumers hear the same ad events as the event stream.
        /// `availableCommands` on the real stream: seeking and rate changes go away inside each break and
        /// come back in content (skipping is checked in real time, with the skippable ad).
        @Test func availableCommandsFollowTheBreaks() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.end, timeout: .seconds(60))
            // The commands in effect when each ad and content event came (the set published last before it).
            var current: Set<PlayerCommand> = []
            var inBreak: [Set<PlayerCommand>] = []
            var inContent: [Set<PlayerCommand>] = []
            var breakOpen = false
            for event in s.recorder.events {
                switch event {
                case .availableCommandsChanged(let commands):
                    current = commands
                    (breakOpen ? { inBreak.append(commands) } : { inContent.append(commands) })()
                case .adSequenceEntered: breakOpen = true
                case .adSequenceExited: breakOpen = false
                default: break
                }
            }
            #expect(!inBreak.isEmpty && inBreak.allSatisfy { !$0.contains(.seek) && !$0.contains(.changeRate) }, "\(inBreak)")
            #expect(inContent.contains { $0.contains(.seek) && $0.contains(.changeRate) }, "\(inContent)")
            #expect(!current.contains(.skipAd))
        }

        @Test func adEventsReachTheAdsDelegateAndConsumers() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let delegate = AdsDelegateRecorder()
            let consumer = AdsDelegateRecorder()
            s.controller.delegate = delegate
            s.controller.addSessionConsumer(consumer)
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.end, timeout: .seconds(60))
            await s.controller.settle()
            let expected = Self.fullPlay.filter { $0 != "WillPauseForAd" && $0 != "End" }
            #expect(delegate.calls == expected)
            #expect(consumer.calls == expected)
        }

        /// Seek rules in content time: forward across one break plays it and then lands on the target;
        /// backward plays none; across several (mid-roll and post-roll, to the end) plays only the last.
        /// Real time: at fast-mode speed a progress report can land past the target (or in the next
        /// break), which the rules allow but this test would not see land where it asked.
        @Test func seekRulesPlayTheCrossedBreakThenContinue() async throws {
            let s = try await Self.start(fast: false)
            defer { Task { await s.stop() } }
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.ready)
            let ssai = try #require(s.controller.currentSession?.ssai)
            // From content 0 to 2 crosses no break (the pre-roll is at 0, where playback already is).
            let first = CompletionProbe()
            ssai.seek(toContentTime: .seconds(2), completion: first.callback)
            #expect(await first.value(timeout: .seconds(10)) == true)
            #expect(ssai.canSeek)
            #expect(Self.adTrace(s.recorder.events).isEmpty)

            // Forward across the mid-roll: it plays, then the seek completes at content 15.
            var mark = await s.recorder.cursor()
            let forward = CompletionProbe()
            ssai.seek(toContentTime: .seconds(15), completion: forward.callback)
            s.controller.play()
            #expect(await forward.value(timeout: .seconds(20)) == true)
            try await s.recorder.waitFor(from: mark, timeout: .seconds(5)) { if case .progress(_, let t) = $0 { t >= .seconds(14.5) } else { false } }
            #expect(
                Self.adTrace(Array(s.recorder.events[mark...])) == [
                    "WillPauseForAd", "SequenceEnter 1", "AdEnter ad-mid-1", "AdExit ad-mid-1", "AdEnter ad-mid-2", "AdExit ad-mid-2", "SequenceExit 1",
                ])

            // Backward, while playing: no ads, straight to content 3.
            mark = await s.recorder.cursor()
            #expect(await s.controller.seekAndWait(to: .seconds(3)))
            // The completion is delivered just before the progress report at the landing point.
            try await s.recorder.waitFor(from: mark, timeout: .seconds(10)) { if case .progress(_, let t) = $0 { abs(t.seconds - 3) < 1 } else { false } }
            #expect(Self.adTrace(Array(s.recorder.events[mark...])).isEmpty)

            // Across the mid-roll and the post-roll to the end: only the post-roll plays.
            mark = await s.recorder.cursor()
            let toEnd = CompletionProbe()
            ssai.seek(toContentTime: .seconds(20), completion: toEnd.callback)
            try await s.recorder.waitFor(.end, from: mark, timeout: .seconds(30))
            #expect(
                Self.adTrace(Array(s.recorder.events[mark...])) == [
                    "WillPauseForAd", "SequenceEnter 2", "AdEnter ad-post", "AdExit ad-post", "SequenceExit 2", "End",
                ])
            #expect(await toEnd.value(timeout: .seconds(5)) == true)
        }

        /// Pausing inside an ad reports AdPause/AdResume and sends one pause and one resume beacon;
        /// while the ad plays, seeks are refused (`canSeek` false, the completion gets false). Real
        /// time, so the ad is still playing when the pause lands.
        @Test func pausingInAnAdRefusesSeeksAndBeaconsPauseAndResume() async throws {
            let s = try await Self.start(fast: false)
            defer { Task { await s.stop() } }
            let controller = s.controller
            s.controller.addSessionConsumer(
                EventHook { event in
                    if case .adEntered(_, let ad) = event, ad.adID == "ad-pre" { controller.pause(); return true }
                    return false
                })
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor { if case .adPaused(_, let ad) = $0 { ad.adID == "ad-pre" } else { false } }
            let ssai = try #require(s.controller.currentSession?.ssai)
            #expect(!ssai.canSeek)
            #expect(ssai.adStatus?.ad.adID == "ad-pre")
            #expect(await s.controller.seekAndWait(to: .seconds(15)) == false)
            s.controller.play()
            try await s.recorder.waitFor(timeout: .seconds(10)) { if case .adSequenceExited(_, let q) = $0 { q.index == 0 } else { false } }
            s.controller.pause()
            #expect(
                Array(Self.adTrace(s.recorder.events).prefix(7)) == [
                    "WillPauseForAd", "SequenceEnter 0", "AdEnter ad-pre", "AdPause ad-pre", "AdResume ad-pre", "AdExit ad-pre", "SequenceExit 0",
                ])
            await ssai.drainBeacons()
            try await s.title.beaconLog.waitUntil(describing: "the pre-roll's complete") { Self.beaconCounts($0)["ad-pre/complete"] == 1 }
            let counts = Self.beaconCounts(s.title.beaconLog.hits)
            #expect(counts["ad-pre/pause"] == 1 && counts["ad-pre/resume"] == 1, "\(counts)")
        }

        /// A watched break that playback crosses again plays again, with its beacons again (the seed's
        /// rule): right after the mid-roll the app seeks back before it, and playback goes through it.
        /// Real time from content 9 (fast mode's coarse reports could already be in the post-roll
        /// when the seek back arrives, where seeking is refused).
        @Test func aWatchedBreakCrossedAgainPlaysAndBeaconsAgain() async throws {
            let s = try await Self.start(fast: false)
            defer { Task { await s.stop() } }
            let controller = s.controller
            s.controller.addSessionConsumer(
                EventHook { event in
                    if case .adSequenceExited(_, let q) = event, q.index == 1 { controller.seek(to: .seconds(8)); return true }
                    return false
                })
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.ready)
            #expect(await s.controller.seekAndWait(to: .seconds(9)))
            s.controller.play()
            try await s.recorder.waitFor(timeout: .seconds(15)) { if case .adSequenceExited(_, let q) = $0 { q.index == 1 } else { false } }
            let mark = await s.recorder.cursor()
            try await s.recorder.waitFor(from: mark, timeout: .seconds(20)) { if case .adSequenceExited(_, let q) = $0 { q.index == 1 } else { false } }
            s.controller.pause()
            let trace = Self.adTrace(s.recorder.events)
            #expect(trace.filter { $0 == "SequenceEnter 1" }.count == 2, "\(trace)")
            #expect(!trace.contains("SequenceEnter 0"), "\(trace)")
            let ssai = try #require(s.controller.currentSession?.ssai)
            await ssai.drainBeacons()
            try await s.title.beaconLog.waitUntil(describing: "the replayed mid-roll's beacons") { Self.beaconCounts($0)["ad-mid-2/complete"] == 2 }
            let counts = Self.beaconCounts(s.title.beaconLog.hits)
            #expect(counts["ad-mid-1/impression"] == 2)
            #expect(counts["midroll-1/breakStart"] == 2 && counts["midroll-1/breakEnd"] == 2)
            #expect(ssai.playedBreaks == [1])
        }

        /// The seed's "Seek Without Ads": in the Ready handler the app sets `adsDisabled`, seeks in
        /// content time past the pre-roll and the mid-roll, and only the post-roll plays.
        @Test func adsDisabledResumesWithoutTheCrossedBreaks() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let resumer = ResumeWithoutAds(contentTime: .seconds(12))
            s.controller.delegate = resumer
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            let landed = await resumer.done.value(timeout: .seconds(20))
            #expect(landed == true)
            #expect(s.controller.adsDisabled == false)
            s.controller.play()
            try await s.recorder.waitFor(.end, timeout: .seconds(30))
            #expect(Self.adTrace(s.recorder.events) == ["WillPauseForAd", "SequenceEnter 2", "AdEnter ad-post", "AdExit ad-post", "SequenceExit 2", "End"])
            let progress = Self.contentProgress(s.recorder.events).filter { $0 > .zero }
            #expect(progress.first.map { $0 >= .seconds(11.5) } == true, "\(progress)")
        }

        /// `adsDisabled` set just after a seek applies after that seek: the seek across the mid-roll,
        /// asked first, still plays it (the setting is a command, ordered with the seek).
        @Test func adsDisabledSetJustAfterASeekLeavesThatSeeksAds() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.ready)
            let landed = CompletionProbe()
            s.controller.seek(to: .seconds(12), completion: landed.callback)
            s.controller.adsDisabled = true
            s.controller.play()
            #expect(await landed.value(timeout: .seconds(20)) == true)
            let trace = Self.adTrace(s.recorder.events)
            #expect(trace.contains("SequenceEnter 1") && trace.contains("AdEnter ad-mid-1"), "the crossed mid-roll played: \(trace)")
            #expect(s.controller.adsDisabled)
        }

        /// A skippable ad (ad-mid-1, skip offset 2 s) skipped after its offset: AdSkipped, its skip
        /// beacon, no complete, and the break goes on with the next ad. Real time, since the skip
        /// window is a wall-clock matter here; a companion slot of exactly 300×250 shows its banner
        /// while the ad plays, a 728×90 slot never does.
        @Test func aSkippableAdCanBeSkippedAndItsCompanionFillsTheMatchingSlot() async throws {
            let s = try await Self.start(fast: false)
            defer { Task { await s.stop() } }
            let shown = StringLog()
            let container = SSAIAdDisplayContainer(companionSlots: [
                SSAICompanionSlot(width: 300, height: 250) { companion in shown.append(companion.map { "300x250 \($0.id ?? "?")" } ?? "300x250 cleared") },
                SSAICompanionSlot(width: 728, height: 90) { companion in shown.append(companion.map { "728x90 \($0.id ?? "?")" } ?? "728x90 cleared") },
            ])
            s.controller.addSessionConsumer(container)
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.ready)
            s.controller.adsDisabled = true
            let ssai = try #require(s.controller.currentSession?.ssai)
            #expect(await s.controller.seekAndWait(to: .seconds(9)))
            s.controller.adsDisabled = false
            s.controller.play()
            try await s.recorder.waitFor(timeout: .seconds(10)) {
                if case .adProgressed(_, let p) = $0 { p.ad.adID == "ad-mid-1" && p.time >= .seconds(2.1) } else { false }
            }
            #expect(ssai.adStatus?.canSkip == true)
            await s.controller.settle()
            #expect(s.controller.availableCommands.contains(.skipAd) && !s.controller.availableCommands.contains(.seek), "\(s.controller.availableCommands)")
            #expect(ssai.adStatus?.number == 1 && ssai.adStatus?.count == 2)
            #expect(ssai.skipAd())
            try await s.recorder.waitFor(timeout: .seconds(10)) { if case .adEntered(_, let ad) = $0 { ad.adID == "ad-mid-2" } else { false } }
            #expect(Self.adTrace(s.recorder.events).contains("AdSkipped ad-mid-1"))
            // ad-mid-2 is not skippable.
            #expect(ssai.skipAd() == false)
            let link = ssai.clickThrough()
            #expect(link?.absoluteString.hasPrefix("https://advertiser.example.com/ad-mid-2") == true)
            try await s.recorder.waitFor(timeout: .seconds(10)) { if case .adSequenceExited(_, let q) = $0 { q.index == 1 } else { false } }
            s.controller.pause()
            await ssai.drainBeacons()
            try await s.title.beaconLog.waitUntil(describing: "skip and click beacons") {
                Self.beaconCounts($0)["ad-mid-1/skip"] == 1 && Self.beaconCounts($0)["ad-mid-2/clickTracking"] == 1
            }
            let counts = Self.beaconCounts(s.title.beaconLog.hits)
            #expect(counts["ad-mid-1/complete"] == nil, "a skipped ad must not report complete: \(counts)")
            #expect(counts["ad-mid-2/complete"] == 1)
            await s.controller.settle()
            #expect(shown.lines == ["300x250 companion-ad-mid-1", "300x250 cleared"])
        }

        /// Beacon failures are retried a bounded number of times and never disturb playback.
        @Test func failingBeaconsAreRetriedAndPlaybackCarriesOn() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            s.title.beaconLog.failNext(4, status: 503)
            s.controller.isAutoPlay = true
            s.controller.setVideos([Video(url: s.title.vmapURL)])
            try await s.recorder.waitFor(.end, timeout: .seconds(60))
            let ssai = try #require(s.controller.currentSession?.ssai)
            await ssai.drainBeacons()
            #expect(Self.adTrace(s.recorder.events) == Self.fullPlay)
            #expect(!s.recorder.lifecycleNames.contains("Error"))
            let results = await ssai.beaconResults()
            #expect(results.contains { $0.attempts > 1 && $0.succeeded }, "nothing was retried: \(results.prefix(6))")
            #expect(results.allSatisfy { $0.attempts <= 3 })
        }

        /// The VMAP's thumbnails track (`bc:thumbnailURL`) reaches thumbnail seeking through the provider
        /// chain: the session's thumbnail for a content time is the VMAP's, decoded by the engine.
        @Test func theVMAPThumbnailsFeedThumbnailSeeking() async throws {
            let harness = try await Harness.start()
            defer { Task { await harness.stop() } }
            let title = try await SSAITitle.install(on: harness.server)
            let thumbnails = ThumbnailSeekingProvider(transport: AsyncHTTPClientTransport.shared, imageCodec: GStreamerImageCodec())
            let controller = harness.controller(provider: SSAISessionProvider(upstream: thumbnails, transport: AsyncHTTPClientTransport.shared))
            defer { controller.shutdown() }
            let recorder = EventRecorder(controller)
            controller.setVideos([Video(url: title.vmapURL)])
            try await recorder.waitFor(.ready)
            let session = try #require(controller.currentSession)
            #expect(session.ssai?.thumbnailsURL == harness.server.url("ssai/thumbnails.vtt"))
            let thumbnail = try #require(await session.thumbnail(at: .seconds(12)))
            #expect(thumbnail.imageURL.lastPathComponent == SSAIFixture.thumbnailPath)
            let png = try #require(try await session.thumbnailImage(at: .seconds(12)))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }

        /// A VMAP that 404s: a typed error event, and a Playback-API-style video (a `src` beside its
        /// `vmap`) plays its stream without ad events; a video that is only the VMAP URL fails with it.
        @Test func aMissingVMAPIsATypedErrorAndContentPlaysWhenItCan() async throws {
            let s = try await Self.start()
            defer { Task { await s.stop() } }
            let missing = s.harness.server.url("ssai/missing.vmap")
            s.controller.isAutoPlay = true
            s.controller.setVideos([
                Video(source: Source(url: s.title.streamURL, deliveryMethod: .hls, properties: [Source.PropertyKey.vmap: .string(missing.absoluteString)]))
            ])
            try await s.recorder.waitFor(.end, timeout: .seconds(60))
            let error = try #require(s.recorder.errors.first)
            #expect(error.code == .ssaiVMAPLoadFailed)
            #expect(error.httpStatus == 404)
            #expect(Self.adTrace(s.recorder.events) == ["End"])

            let mark = await s.recorder.cursor()
            s.controller.setVideos([Video(url: missing)])
            let failed = try await s.recorder.waitFor(from: mark, failOn: []) { $0.lifecycleEvent?.kind == .fail }
            #expect(failed.lifecycleEvent?.error?.code == .ssaiVMAPLoadFailed)
        }
    }
}

/// Records the ads delegate's and consumer's callbacks as short names.
final class AdsDelegateRecorder: PlaybackControllerAdsDelegate, PlaybackSessionConsumer, Sendable {
    private let log = Mutex<[String]>([])
    var calls: [String] { log.withLock { $0 } }
    private func add(_ text: String) { log.withLock { $0.append(text) } }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAdSequence adSequence: AdSequence) {
        add("SequenceEnter \(adSequence.index)")
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAdSequence adSequence: AdSequence) {
        add("SequenceExit \(adSequence.index)")
    }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didEnterAd ad: Ad) { add("AdEnter \(ad.adID ?? "?")") }
    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didExitAd ad: Ad) { add("AdExit \(ad.adID ?? "?")") }
    func playbackSession(_ session: PlaybackSession, didEnterAdSequence adSequence: AdSequence) { add("SequenceEnter \(adSequence.index)") }
    func playbackSession(_ session: PlaybackSession, didExitAdSequence adSequence: AdSequence) { add("SequenceExit \(adSequence.index)") }
    func playbackSession(_ session: PlaybackSession, didEnterAd ad: Ad) { add("AdEnter \(ad.adID ?? "?")") }
    func playbackSession(_ session: PlaybackSession, didExitAd ad: Ad) { add("AdExit \(ad.adID ?? "?")") }
}

/// Runs `action` on each event until it returns true once, on the delivery task (so the action
/// reaches the controller right after the event, without a test task's scheduling delay).
final class EventHook: PlaybackSessionConsumer, Sendable {
    private let action: @Sendable (PlaybackEvent) -> Bool
    private let done = Mutex(false)
    init(_ action: @escaping @Sendable (PlaybackEvent) -> Bool) { self.action = action }

    func didReceive(_ event: PlaybackEvent) {
        guard !done.withLock({ $0 }) else { return }
        if action(event) { done.withLock { $0 = true } }
    }
}

/// The seed's "Seek Without Ads" Ready handler.
final class ResumeWithoutAds: PlaybackControllerDelegate, Sendable {
    let contentTime: MediaTime
    let done = CompletionProbe()
    init(contentTime: MediaTime) { self.contentTime = contentTime }

    func playbackController(_ controller: PlaybackController, playbackSession session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
        guard case .ready = lifecycleEvent, let ssai = session.ssai else { return }
        controller.adsDisabled = true
        let done = self.done
        ssai.seek(toContentTime: contentTime) { [weak controller] landed in
            controller?.adsDisabled = false
            done.callback(landed)
        }
    }
}

/// Lines appended from any thread.
final class StringLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}
