import CoveCore
import CovePlayerControls
import CovePlayerUI

/// Everything the painter draws for one picture: a value, so the same scene always gives the same
/// pixels and hit regions (tests paint scenes without a window or an engine).
public struct ViewScene: Sendable, Hashable {
    /// The picture's size in pixels (the frames the engine blends into: the window's).
    public var size: OverlayImage.Size
    /// The controls' state from the controller's events.
    public var controls: PlayerControlsState
    /// The layout to draw (already resolved for the phase, the stream and the options).
    public var layout: ControlLayout
    public var controlsShown: Bool
    public var menu: ControlMenu?
    /// The control or menu row the keyboard focus is on; nil: no ring drawn.
    public var focus: HitTarget?
    /// Under the pointer (drawn highlighted).
    public var hover: HitTarget?
    /// A scrubbing preview: where it is on the progress bar (0…1), its time, its thumbnail.
    public var preview: Preview?
    /// How far the media is buffered, as a fraction of the progress bar.
    public var bufferedFraction: Double?
    public var isFullscreen: Bool
    /// Shown while no frame of the video is (audio only, before the first frame).
    public var poster: RGBAImage?
    /// A short message ("Captions: French"), shown above the bar for a moment.
    public var message: String?
    /// The app's own views by name (`ControlTag.custom(name)`): a logo, drawn fitted into the view's frame.
    public var customImages: [String: RGBAImage]
    public var localizer: Localizer
    public var jumpBackSeconds: Int

    public struct Preview: Sendable, Hashable {
        public var fraction: Double
        public var time: Duration
        public var thumbnail: RGBAImage?

        public init(fraction: Double, time: Duration, thumbnail: RGBAImage? = nil) {
            self.fraction = fraction
            self.time = time
            self.thumbnail = thumbnail
        }
    }

    public init(
        size: OverlayImage.Size, controls: PlayerControlsState = PlayerControlsState(), layout: ControlLayout = .vod, controlsShown: Bool = true,
        menu: ControlMenu? = nil, focus: HitTarget? = nil, hover: HitTarget? = nil, preview: Preview? = nil, bufferedFraction: Double? = nil,
        isFullscreen: Bool = false, poster: RGBAImage? = nil, message: String? = nil, customImages: [String: RGBAImage] = [:],
        localizer: Localizer = Localizer(), jumpBackSeconds: Int = 10
    ) {
        self.size = size
        self.controls = controls
        self.layout = layout
        self.controlsShown = controlsShown
        self.menu = menu
        self.focus = focus
        self.hover = hover
        self.preview = preview
        self.bufferedFraction = bufferedFraction
        self.isFullscreen = isFullscreen
        self.poster = poster
        self.message = message
        self.customImages = customImages
        self.localizer = localizer
        self.jumpBackSeconds = jumpBackSeconds
    }

    /// Picture pixels per point: a 720-line picture draws at one pixel a point, a 1080-line one at 1.5.
    public var scale: Double { min(4, max(0.5, Double(size.height) / 720)) }
}
