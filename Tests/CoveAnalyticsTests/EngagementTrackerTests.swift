import CoveAnalytics
import Foundation
import Testing

@testable import CoveCore

/// The tracker is a pure state machine: playback events in, Data Collection API events out.
@Suite("Engagement tracker")
struct EngagementTrackerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let session = PlaybackSession(
        id: 1, video: Video(url: URL(string: "https://cdn.example.com/v.m3u8")!, properties: ["id": "v1", "name": "Clip"]), source: nil, player: nil,
        providerExtension: nil, send: { _ in })
    static let top = Variant(bandwidth: 2_700_000, width: 1280, height: 720, url: "https://cdn.example.com/v2/index.m3u8")

    /// Feeds `events`, each at `start` plus its wall second, and returns the engagement events.
    static func engagements(_ events: [(Double, PlaybackEvent)]) -> [AnalyticsEvent] {
        var tracker = EngagementTracker(configuration: .init(account: "1", session: "s", viewerID: nil, engagementInterval: .seconds(5)))
        return events.flatMap { tracker.handle($0.1, at: start.addingTimeInterval($0.0)) }.filter { $0.name == "video_engagement" }
    }

    static func transfer(_ kind: MediaTransfer.Kind, bytes: Int, seconds: Double, status: Int = 200) -> PlaybackEvent {
        .mediaTransferred(
            session,
            MediaTransfer(
                kind: kind, url: "https://cdn.example.com/x", status: status, bytes: bytes, startedAt: 0, duration: .milliseconds(Int64(seconds * 1000))))
    }

    static func progress(_ seconds: Double) -> PlaybackEvent { .progress(session, MediaTime(seconds: seconds)) }

    /// Every engagement event carries the QoE since the previous one: the variant playing, the bytes of
    /// every request but the manifests', the media downloads' throughput, and the stalls; the next event
    /// starts from zero, so the events of a play add up to what it fetched.
    @Test func engagementEventsCarryTheQualitySinceThePreviousOne() {
        let s = Self.session
        let out = Self.engagements([
            (0, .sessionAdvanced(s)), (0, .lifecycle(s, .ready)),
            (0, Self.transfer(.manifest, bytes: 500, seconds: 0.1)),
            (0, Self.transfer(.initSegment, bytes: 1_000, seconds: 0.25)),
            (0, Self.transfer(.segment, bytes: 3_000, seconds: 0.75)),
            (0, Self.transfer(.key, bytes: 16, seconds: 0.01)),
            (0, Self.transfer(.segment, bytes: 0, seconds: 0.5, status: 0)),
            (0, .variantChanged(s, VariantChange(from: nil, to: Self.top, reason: .initial))),
            (0, .lifecycle(s, .play)), (1, Self.progress(1)), (3, Self.progress(3)),
            (3, .lifecycle(s, .stalled)), (5.5, .lifecycle(s, .recovered)),
            (6, Self.progress(4)), (7, Self.progress(5)), (8, Self.progress(6)), (9, Self.progress(9)), (10, Self.progress(10)),
            (10, .lifecycle(s, .end)),
        ])
        #expect(out.map { $0["range"] } == ["0..3", "3..9", "9..10"])
        let first = out[0]
        #expect(first["media_bytes"] == "4016", "manifests are not media; a failed request's bytes (none) count")
        #expect(first["measured_bps"] == "32000", "4,000 bytes in 1 s of media downloads")
        #expect(first["rendition_indicated_bps"] == "2700000" && first["rendition_width"] == "1280" && first["rendition_height"] == "720")
        #expect(first["rendition_url"] == "https://cdn.example.com/v2/index.m3u8")
        #expect(first["rebuffering_count"] == nil)
        #expect(out[1]["rebuffering_count"] == "1" && out[1]["rebuffering_seconds"] == "2.500", "\(out[1].parameters)")
        #expect(out[1]["media_bytes"] == "0" && out[1]["measured_bps"] == nil)
        #expect(out[2]["rebuffering_count"] == nil, "the stall was reported once")
    }

    /// A seek closes the range watched and the next starts where the playhead landed: nothing twice.
    @Test func aSeekSplitsTheRangesWithoutOverlap() {
        let s = Self.session
        let out = Self.engagements([
            (0, .sessionAdvanced(s)), (0, .lifecycle(s, .ready)), (0, .lifecycle(s, .play)),
            (1, Self.progress(1)), (3, Self.progress(3)),
            (3.1, .framePresented(s, FramePresentation(cause: .seek, wallTime: 0))),
            (3.2, Self.progress(12)), (5, Self.progress(14)), (6, Self.progress(15)), (6, .lifecycle(s, .pause)),
        ])
        #expect(out.map { $0["range"] } == ["0..3", "12..15"])
    }
}
