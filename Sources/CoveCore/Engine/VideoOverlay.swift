import Synchronization

/// A picture drawn over the video by the engine: a player view's controls and menus, captions an app
/// draws itself, a logo, a poster before the first frame.
///
/// The seam between a player view and an engine, and why it is shaped so: the view draws pixels (it owns
/// the look and the hit-testing); the engine owns the frames. An engine that supports overlays blends
/// the latest image into every frame it presents — so the controls are in step with the picture and
/// never flicker against it — and, while no frames flow (paused, before the first frame, audio only),
/// presents the image over the last frame (or the backdrop) itself whenever it changes.
///
/// Identity, not value: the same overlay is the same output (`EnginePlayerConfiguration` may be copied
/// freely; every copy draws the same overlay). Thread-safe.
public final class VideoOverlay: Sendable, Hashable {
    private struct State {
        var image: OverlayImage?
        var version = 0
        var frameSize: OverlayImage.Size?
        var observers: [Int: @Sendable (Change) -> Void] = [:]
        var nextObserver = 0
    }

    /// What an observer hears.
    public enum Change: Sendable, Hashable {
        /// A new image (or none): engines present it.
        case image(version: Int)
        /// The engine now blends into frames of this size (the window's, after scaling): a view draws
        /// its next image at that size.
        case frameSize(OverlayImage.Size)
        /// The picture on screen was lost (a window exposed or resized): engines present it again.
        case needsDisplay
    }

    private let state = Mutex(State())

    public init() {}

    /// Replaces the picture drawn over the video (nil: nothing is drawn).
    public func show(_ image: OverlayImage?) {
        let (version, observers) = state.withLock { s -> (Int, [@Sendable (Change) -> Void]) in
            s.image = image
            s.version += 1
            return (s.version, Array(s.observers.values))
        }
        for observer in observers { observer(.image(version: version)) }
    }

    /// The image to draw now and its version (versions only grow; 0 before the first `show`).
    public var current: (image: OverlayImage?, version: Int) {
        state.withLock { ($0.image, $0.version) }
    }

    /// The size of the frames the engine blends into, once it has seen one.
    public var frameSize: OverlayImage.Size? { state.withLock { $0.frameSize } }

    /// Asks engines to present the image again (after the window it shows in was exposed).
    public func setNeedsDisplay() {
        for observer in state.withLock({ Array($0.observers.values) }) { observer(.needsDisplay) }
    }

    /// Engines report the size of the frames they blend into.
    public func engineRendersFrames(of size: OverlayImage.Size) {
        let observers = state.withLock { s -> [@Sendable (Change) -> Void] in
            guard s.frameSize != size else { return [] }
            s.frameSize = size
            return Array(s.observers.values)
        }
        for observer in observers { observer(.frameSize(size)) }
    }

    /// Calls `handler` on every change, on the thread that made it, until the token is cancelled.
    public func observe(_ handler: @escaping @Sendable (Change) -> Void) -> Observation {
        let id = state.withLock { s -> Int in
            s.nextObserver += 1
            s.observers[s.nextObserver] = handler
            return s.nextObserver
        }
        return Observation { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// Ends an observation when cancelled (or released).
    public final class Observation: Sendable {
        private let cancelAction: Mutex<(@Sendable () -> Void)?>

        init(cancel: @escaping @Sendable () -> Void) {
            cancelAction = Mutex(cancel)
        }

        public func cancel() {
            cancelAction.withLock { action -> (@Sendable () -> Void)? in
                defer { action = nil }
                return action
            }?()
        }

        deinit { cancel() }
    }

    public static func == (lhs: VideoOverlay, rhs: VideoOverlay) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// One overlay picture: a rectangle of pixels placed on a canvas the size of the frame it was drawn for,
/// and optionally a backdrop shown only where there is no video frame (a poster for audio-only media or
/// before the first frame).
///
/// Pixels are 8-bit, premultiplied alpha, in memory order blue, green, red, alpha (cairo's ARGB32 on a
/// little-endian machine, GStreamer's BGRA): what a 2D library draws, handed to the engine as it is.
/// An engine whose frames are another size scales the placement (and the pixels) to them.
public struct OverlayImage: Sendable, Hashable {
    public struct Size: Sendable, Hashable, CustomStringConvertible {
        public let width: Int
        public let height: Int

        public init(width: Int, height: Int) {
            self.width = max(0, width)
            self.height = max(0, height)
        }

        public var description: String { "\(width)×\(height)" }
    }

    /// A rectangle of premultiplied BGRA pixels at (`x`, `y`) on the canvas.
    public struct Layer: Sendable, Hashable {
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
        /// Bytes from one row to the next (at least `width × 4`).
        public let bytesPerRow: Int
        public let pixels: [UInt8]

        /// Throws when the pixels do not fill `height` rows of `bytesPerRow` bytes, or the rectangle is empty.
        public init(x: Int, y: Int, width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) throws(PlaybackError) {
            guard width > 0, height > 0 else {
                throw PlaybackError(.invalidArgument, "An overlay layer of \(width)×\(height) pixels is empty; give it a positive width and height")
            }
            guard bytesPerRow >= width * 4, pixels.count >= bytesPerRow * height else {
                throw PlaybackError(
                    .invalidArgument,
                    "An overlay layer of \(width)×\(height) needs \(height) rows of at least \(width * 4) bytes; got \(pixels.count) bytes at \(bytesPerRow) per row"
                )
            }
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.bytesPerRow = bytesPerRow
            self.pixels = pixels
        }
    }

    /// The frame size the layers were drawn for.
    public let canvas: Size
    /// Drawn over every frame.
    public let layer: Layer?
    /// Drawn (opaque, under `layer`) only while no video frame is shown: before the first frame and for
    /// media without video.
    public let backdrop: Layer?

    public init(canvas: Size, layer: Layer?, backdrop: Layer? = nil) {
        self.canvas = canvas
        self.layer = layer
        self.backdrop = backdrop
    }
}
