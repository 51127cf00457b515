/// The `X-TIMESTAMP-MAP=LOCAL:<time>,MPEGTS:<ticks>` header of HLS subtitle segments (RFC 8216
/// section 3.5): cue time `LOCAL` corresponds to the 90 kHz MPEG-2 presentation timestamp
/// `MPEGTS` of the stream, so segmented subtitles line up with the audio and video.
public struct WebVTTTimestampMap: Sendable, Hashable {
    /// Presentation timestamps are 33-bit counters and wrap about every 26.5 hours.
    public static let mpegtsModulus: Int64 = 1 << 33
    public static let mpegtsClockRate: Double = 90_000

    public let localTime: WebVTTTimestamp
    /// The 90 kHz timestamp as written (some packagers write values past 2^33; they are reduced
    /// when used).
    public let mpegts: Int64

    public init(localTime: WebVTTTimestamp, mpegts: Int64) {
        precondition(mpegts >= 0, "MPEG-TS timestamps are never negative")
        self.localTime = localTime
        self.mpegts = mpegts
    }

    /// Seconds to add to cue times to put them on the raw MPEG-TS timeline (PTS / 90 kHz).
    public var presentationOffset: Double {
        Double(mpegts % Self.mpegtsModulus) / Self.mpegtsClockRate - localTime.seconds
    }

    /// Seconds to add to cue times to put them on a playback timeline whose zero is the
    /// presentation timestamp `timelineStartPTS` (usually the first video sample's).
    ///
    /// Because timestamps wrap at 2^33, `mpegts` is read as the value congruent to it modulo 2^33
    /// that lies nearest to `referencePTS` (default: `timelineStartPTS`). A subtitle segment cut
    /// just after a wrap therefore lands just after the start rather than 26.5 hours later. For
    /// streams running more than about 13 hours, pass the (unwrapped) PTS of the current media
    /// segment as `referencePTS`.
    public func offset(timelineStartPTS: Int64, referencePTS: Int64? = nil) -> Double {
        let modulus = Self.mpegtsModulus
        let reference = referencePTS ?? timelineStartPTS
        // Both remainders are below 2^33 in size, so nothing here can overflow.
        var delta = (mpegts % modulus - reference % modulus) % modulus
        if delta >= modulus / 2 { delta -= modulus } else if delta < -modulus / 2 { delta += modulus }
        let ticks = Double(reference) - Double(timelineStartPTS) + Double(delta)
        return ticks / Self.mpegtsClockRate - localTime.seconds
    }
}

extension WebVTTTimestampMap {
    static let headerPrefix = "X-TIMESTAMP-MAP="

    struct Failure: Error {
        let reason: String
    }

    /// Reads the value after `X-TIMESTAMP-MAP=`: comma-separated `LOCAL:` and `MPEGTS:` in either
    /// order, spaces around them tolerated. Returns why not, for the warning.
    static func parse(_ value: Substring) -> Result<WebVTTTimestampMap, Failure> {
        var local: WebVTTTimestamp?
        var mpegts: Int64?
        for part in value.split(separator: ",") {
            let text = SettingsText.trimmed(part)
            if text.hasPrefix("LOCAL:") {
                guard let time = WebVTTTimestamp(text.dropFirst(6)) else { return .failure(Failure(reason: "LOCAL is not a WebVTT timestamp")) }
                local = time
            } else if text.hasPrefix("MPEGTS:") {
                let digits = text.dropFirst(7)
                guard !digits.isEmpty, digits.utf8.allSatisfy(TimestampSyntax.isDigit), let ticks = Int64(digits) else {
                    return .failure(Failure(reason: "MPEGTS is not a non-negative whole number of 90 kHz ticks"))
                }
                mpegts = ticks
            }
        }
        guard let local else { return .failure(Failure(reason: "LOCAL is missing")) }
        guard let mpegts else { return .failure(Failure(reason: "MPEGTS is missing")) }
        return .success(WebVTTTimestampMap(localTime: local, mpegts: mpegts))
    }
}
