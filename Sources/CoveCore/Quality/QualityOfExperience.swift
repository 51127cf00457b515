import Foundation

/// One session's quality of experience: the figures the industry tracks (startup and its parts,
/// rebuffering, the bitrate actually played, switches, seeks, bytes fetched and wasted, errors).
/// Made by `QoEMeter` from the controller's events; the streaming engine's per-request accounting
/// (`MediaTransfer` with its segment `span`) makes the byte and bitrate figures exact.
public struct QualityOfExperience: Sendable, Hashable {
    /// From the play request to the first frame, and where that time went.
    public struct Startup: Sendable, Hashable {
        /// The play request (`setVideos`/`play`, or the meter's start) → the first frame.
        public var total: Duration
        /// The Playback API lookup, when the app reported one (`QoEMeter.noteCatalog`).
        public var catalog: Duration?
        /// The first manifest request: sent → last byte.
        public var manifest: Duration?
        /// The first media segment: sent → last byte.
        public var firstSegment: Duration?
        /// The first segment's last byte → the first frame (demuxing, decoding, the sink).
        public var decode: Duration?

        public init(total: Duration, catalog: Duration? = nil, manifest: Duration? = nil, firstSegment: Duration? = nil, decode: Duration? = nil) {
            self.total = total
            self.catalog = catalog
            self.manifest = manifest
            self.firstSegment = firstSegment
            self.decode = decode
        }
    }

    /// How long one variant was on screen.
    public struct VariantTime: Sendable, Hashable {
        /// The variant's declared bandwidth (bits/s; 0 when it declares none).
        public var bandwidth: Int
        public var height: Int?
        /// Media seconds played from it.
        public var played: Double

        public init(bandwidth: Int, height: Int? = nil, played: Double) {
            self.bandwidth = bandwidth
            self.height = height
            self.played = played
        }
    }

    public var startup: Startup?
    /// Stalls after the first frame (the seed's PlaybackStalled), and the wall time spent in them.
    public var rebufferCount: Int
    public var rebufferDuration: Duration
    /// Wall time playing (the clock running, neither paused nor stalled).
    public var playingDuration: Duration
    /// Rebuffering over rebuffering plus playing (0 when nothing played).
    public var rebufferRatio: Double {
        let total = MediaTime(rebufferDuration).seconds + MediaTime(playingDuration).seconds
        return total > 0 ? MediaTime(rebufferDuration).seconds / total : 0
    }
    /// Media seconds played (the union of what the playhead crossed while playing).
    public var mediaPlayed: Double
    /// Each played media second weighted by the declared bandwidth of the segment it came from.
    public var averageBitrate: Int?
    public var timeAtVariant: [VariantTime]
    /// Variant switches of the stream (from the engine's reports), up and down by declared bandwidth.
    public var upSwitches: Int
    public var downSwitches: Int
    /// Each seek: from its start (the controller's BufferEmpty for it) to the frame at its target.
    public var seekLatencies: [Duration]
    /// Body bytes of every request the engine made for this session (manifests, segments, keys, text).
    public var bytesFetched: Int
    /// Bytes of media segments never played: fetched for time the playhead never crossed, fetched again
    /// for the same time (only the last copy played), or cut off (an abandoned or failed download).
    public var bytesWasted: Int
    /// Video frames the output dropped (late) and rendered, where it counts them (nil: not reported).
    public var droppedFrames: Int?
    public var renderedFrames: Int?
    /// Errors, in order: recoverable ones (a failed download while media was buffered) and the fatal one.
    public var errors: [PlaybackError]

    public init(
        startup: Startup? = nil, rebufferCount: Int = 0, rebufferDuration: Duration = .zero, playingDuration: Duration = .zero, mediaPlayed: Double = 0,
        averageBitrate: Int? = nil, timeAtVariant: [VariantTime] = [], upSwitches: Int = 0, downSwitches: Int = 0, seekLatencies: [Duration] = [],
        bytesFetched: Int = 0, bytesWasted: Int = 0, droppedFrames: Int? = nil, renderedFrames: Int? = nil, errors: [PlaybackError] = []
    ) {
        self.startup = startup
        self.rebufferCount = rebufferCount
        self.rebufferDuration = rebufferDuration
        self.playingDuration = playingDuration
        self.mediaPlayed = mediaPlayed
        self.averageBitrate = averageBitrate
        self.timeAtVariant = timeAtVariant
        self.upSwitches = upSwitches
        self.downSwitches = downSwitches
        self.seekLatencies = seekLatencies
        self.bytesFetched = bytesFetched
        self.bytesWasted = bytesWasted
        self.droppedFrames = droppedFrames
        self.renderedFrames = renderedFrames
        self.errors = errors
    }
}

extension QualityOfExperience {
    /// As JSON (`cove probe --json`'s `qoe`, the report's data): seconds as numbers, bits/s and bytes as integers.
    public var json: JSONValue {
        func seconds(_ duration: Duration) -> JSONValue { .seconds(MediaTime(duration).seconds) }
        var object: JSONObject = [
            "rebufferCount": .int(Int64(rebufferCount)),
            "rebufferSeconds": seconds(rebufferDuration),
            "rebufferRatio": .double((rebufferRatio * 10_000).rounded() / 10_000),
            "playingSeconds": seconds(playingDuration),
            "mediaPlayedSeconds": .seconds(mediaPlayed),
            "upSwitches": .int(Int64(upSwitches)),
            "downSwitches": .int(Int64(downSwitches)),
            "seekLatencies": .array(seekLatencies.map(seconds)),
            "bytesFetched": .int(Int64(bytesFetched)),
            "bytesWasted": .int(Int64(bytesWasted)),
            "timeAtVariant": .array(
                timeAtVariant.map { variant in
                    var entry: JSONObject = ["bandwidth": .int(Int64(variant.bandwidth)), "playedSeconds": .seconds(variant.played)]
                    if let height = variant.height { entry["height"] = .int(Int64(height)) }
                    return .object(entry)
                }),
            "errors": .array(
                errors.map { .object(["code": .string($0.code.name), "codeValue": .int(Int64($0.code.rawValue)), "message": .string($0.message)]) }),
        ]
        if let averageBitrate { object["averageBitrate"] = .int(Int64(averageBitrate)) }
        if let droppedFrames { object["droppedFrames"] = .int(Int64(droppedFrames)) }
        if let renderedFrames { object["renderedFrames"] = .int(Int64(renderedFrames)) }
        if let startup {
            var parts: JSONObject = ["totalSeconds": seconds(startup.total)]
            if let catalog = startup.catalog { parts["catalogSeconds"] = seconds(catalog) }
            if let manifest = startup.manifest { parts["manifestSeconds"] = seconds(manifest) }
            if let segment = startup.firstSegment { parts["firstSegmentSeconds"] = seconds(segment) }
            if let decode = startup.decode { parts["decodeSeconds"] = seconds(decode) }
            object["startup"] = .object(parts)
        }
        return .object(object)
    }
}
