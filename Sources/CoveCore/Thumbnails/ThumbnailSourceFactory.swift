import Foundation

/// Makes the thumbnail source for a video's thumbnail track.
///
/// The seed turns thumbnail seeking on for every video that carries a thumbnail track, with nothing to
/// set up (`thumbnailSeekingEnabled` is on by default and only turns it off). A controller therefore
/// asks a factory for a source whenever a session's video has a track (`Video.thumbnailVTTURL`) and no
/// provider in the chain attached a source of its own (an SSAI provider's, from the VMAP, wins). The
/// factory is the configuration's `thumbnailSourceFactory`, else the engine when it is one
/// (`GStreamerEngine` is: it has the HTTP transport and an image codec), else there are no thumbnails.
///
/// Making a source must be cheap and must not fetch anything: the session loads the track only while
/// thumbnail seeking is on.
public protocol ThumbnailSourceFactory: Sendable {
    /// A source for the WebVTT thumbnail track at `trackURL`.
    func makeThumbnailSource(trackURL: URL) -> any ThumbnailSource
}
