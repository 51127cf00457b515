import Foundation
import Synchronization

/// Decoded video frames handed to the app (the seed's view strategy for apps that draw the picture
/// themselves: SDL, GTK, a game engine's texture). Frames arrive at their presentation time on a
/// thread of the engine's; a handler slower than the frame rate does not slow playback down: the
/// frames it had no time for are dropped (counted in `dropped`) and audio keeps its clock.
///
/// Identity, not value: the same receiver is the same output (`VideoOutput` is `Hashable`).
public final class VideoFrameReceiver: Sendable, Hashable {
    public let format: VideoFrame.PixelFormat
    /// With a `VideoOverlay` configured (a player view's controls), frames come with it blended in; false
    /// hands over the bare picture (an app that composites the overlay itself, or records the video).
    public let includesOverlay: Bool
    let handler: @Sendable (VideoFrame) -> Void
    private let counts = Mutex<(delivered: Int, dropped: Int)>((0, 0))

    /// `onFrame` runs once per delivered frame, never concurrently with itself.
    public init(format: VideoFrame.PixelFormat = .rgba, includesOverlay: Bool = true, onFrame: @escaping @Sendable (VideoFrame) -> Void) {
        self.format = format
        self.includesOverlay = includesOverlay
        self.handler = onFrame
    }

    /// Frames handed to the handler so far.
    public var delivered: Int { counts.withLock { $0.delivered } }
    /// Frames the engine presented while the handler was still busy (never handed over).
    public var dropped: Int { counts.withLock { $0.dropped } }

    /// Engines call this for each frame they present; `skipped` frames were presented since the last
    /// delivery without being handed over.
    public func deliver(_ frame: VideoFrame, skipped: Int) {
        counts.withLock {
            $0.delivered += 1
            $0.dropped += max(skipped, 0)
        }
        handler(frame)
    }

    public static func == (lhs: VideoFrameReceiver, rhs: VideoFrameReceiver) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// One decoded picture. Its pixels are read inside `withUnsafeBytes(plane:_:)` (the engine's buffer is
/// held for as long as the frame is referenced): keep a frame only as long as it is needed, or copy it
/// with `data(plane:)`.
public final class VideoFrame: @unchecked Sendable {
    public enum PixelFormat: String, Sendable, Hashable {
        /// One plane, 4 bytes per pixel: red, green, blue, alpha.
        case rgba
        /// Three planes: Y at full size, U and V at half width and half height.
        case i420
    }

    /// One plane's layout: `stride` bytes per row (at least the row's width in bytes), `rows` rows.
    public struct Plane: Sendable, Hashable {
        public let stride: Int
        public let rows: Int

        public init(stride: Int, rows: Int) {
            self.stride = stride
            self.rows = rows
        }
    }

    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// The frame's presentation time on the media timeline.
    public let presentationTime: MediaTime
    public let planes: [Plane]
    /// The planes' bytes: valid while the frame lives, never handed out beyond a closure.
    private let storage: [UnsafeRawBufferPointer]
    private let release: @Sendable () -> Void

    /// For engines: `bytes` (one buffer per plane, `stride × rows` long) stay valid until `release`,
    /// which runs once when the frame is no longer referenced.
    public init(
        width: Int, height: Int, format: PixelFormat, presentationTime: MediaTime, planes: [(layout: Plane, bytes: UnsafeRawBufferPointer)],
        release: @escaping @Sendable () -> Void
    ) {
        self.width = width
        self.height = height
        self.format = format
        self.presentationTime = presentationTime
        self.planes = planes.map(\.layout)
        self.storage = planes.map(\.bytes)
        self.release = release
    }

    deinit { release() }

    /// Runs `body` with `plane`'s bytes (stride included; empty for a plane that does not exist). The
    /// pointer must not escape `body`: the frame may be released right after.
    public func withUnsafeBytes<Result>(plane: Int = 0, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) {
            try body(storage.indices.contains(plane) ? storage[plane] : UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// A copy of `plane`'s bytes (stride included).
    public func data(plane: Int = 0) -> Data {
        withUnsafeBytes(plane: plane) { Data($0) }
    }

    /// The RGBA pixel at (`x`, `y`), nil outside the picture or for planar formats.
    public func rgbaPixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard format == .rgba, let plane = planes.first, x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * plane.stride + x * 4
        return withUnsafeBytes(plane: 0) { bytes in
            guard offset + 3 < bytes.count else { return nil }
            return (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
        }
    }
}

/// Decoded audio handed to the app (level meters, analysis, a sound system of its own). Samples arrive
/// after the volume and mute are applied, as the listener would hear them, at their presentation time.
public final class AudioSampleReceiver: Sendable, Hashable {
    let handler: @Sendable (AudioSamples) -> Void

    public init(onSamples: @escaping @Sendable (AudioSamples) -> Void) {
        self.handler = onSamples
    }

    /// Engines call this for each block of samples they play.
    public func deliver(_ samples: AudioSamples) { handler(samples) }

    public static func == (lhs: AudioSampleReceiver, rhs: AudioSampleReceiver) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A block of interleaved 32-bit float samples.
public struct AudioSamples: Sendable {
    public let presentationTime: MediaTime
    public let sampleRate: Int
    public let channels: Int
    /// Interleaved: frame 0's channels, then frame 1's, …
    public let samples: [Float]

    public init(presentationTime: MediaTime, sampleRate: Int, channels: Int, samples: [Float]) {
        self.presentationTime = presentationTime
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// The largest absolute sample value (0 is silence).
    public var peak: Float { samples.reduce(0) { max($0, abs($1)) } }
}

/// The audio volume as the engine applied it.
public struct AudioVolume: Sendable, Hashable {
    /// Linear gain, 0 (silent) to 1 (the stream's own level).
    public let level: Double
    public let isMuted: Bool

    public init(level: Double, isMuted: Bool) {
        self.level = AudioVolume.clamp(level)
        self.isMuted = isMuted
    }

    /// Levels outside 0…1 (and NaN) are clamped: boosting past the stream's own level clips.
    public static func clamp(_ level: Double) -> Double {
        level.isFinite ? min(max(level, 0), 1) : 1
    }

    public static let full = AudioVolume(level: 1, isMuted: false)
}
