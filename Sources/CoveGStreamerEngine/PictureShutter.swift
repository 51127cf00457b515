import CCoveGst
import CGStreamer

/// The controller's shutter on a pipeline's picture: a `videobalance` in the video sink bin, after the
/// captions and before the app's overlay (a player view's controls stay visible over it, as the seed's
/// controls sit above its shutter view), driven through playbin3's colour balance.
///
/// Why through playbin3 and not the element's properties: playsink finds the sink bin's colour-balance
/// element (videobalance is one) and, whenever it configures its video chain, writes its own stored
/// channel values onto it — values set on the element directly are overwritten by playsink's defaults.
/// Set through playbin3, playsink stores them and applies them to every chain it builds.
///
/// Covering by `opacity` scales contrast and saturation by `1 - opacity` around black: every pixel
/// moves `opacity` of the way to black (Y 16, neutral chroma), so a fade is a plain cross-fade to
/// black. At opacity 0 both are back at 1 and videobalance is in passthrough, costing nothing.
enum PictureShutter {
    /// What the sink bin descriptions put before their converter and sink.
    static let description = "videobalance name=cove-shutter ! "

    /// Covers `playbin`'s picture by `opacity` (0…1). videobalance's contrast and saturation channels
    /// span 0…2 over their range, so a kept share `k` is `k / 2` of it.
    static func cover(_ playbin: ElementRef, opacity: Double) {
        let kept = 1 - min(max(opacity.isFinite ? opacity : 0, 0), 1)
        cove_color_balance_set(playbin.object, "CONTRAST", kept / 2)
        cove_color_balance_set(playbin.object, "SATURATION", kept / 2)
    }
}
