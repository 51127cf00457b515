import Foundation

/// Thumbnail seeking (the seed's scrubbing previews): the session fronts its `thumbnailSource` so the
/// controller's switch and the offline rule hold for every caller, and so failures become one
/// `ThumbnailAssetFailedToLoad` event per broken asset instead of an error at every scrub.
extension PlaybackSession {
    /// Whether thumbnails can be offered now: the session has a source (a provider's, or the one the
    /// controller made for the video's thumbnail track), the controller's
    /// `thumbnailSeekingEnabled` is on, and the video is not played offline (the seed offers none offline).
    public var isThumbnailSeekingAvailable: Bool { (try? availableThumbnailSource()) != nil }

    /// The thumbnail for `time`: its image URL and tile. Nil when thumbnails are unavailable, in a gap
    /// of the track, or when the track failed to load (reported as `ThumbnailAssetFailedToLoad`).
    public func thumbnail(at time: MediaTime) async -> Thumbnail? {
        guard let source = try? availableThumbnailSource() else { return nil }
        do {
            return try await source.thumbnail(at: time)
        } catch {
            reportThumbnailFailure(error)
            return nil
        }
    }

    /// The thumbnail for `time` as PNG bytes: its sprite fetched (cached), decoded and cropped to the
    /// tile. Nil in a gap of the track. Throws `unavailable` when thumbnails are off, offline or absent,
    /// and the track's or image's failure otherwise (also reported as `ThumbnailAssetFailedToLoad`).
    public func thumbnailImage(at time: MediaTime) async throws(ThumbnailError) -> Data? {
        let source = try availableThumbnailSource()
        do {
            guard let thumbnail = try await source.thumbnail(at: time) else { return nil }
            return try await source.image(for: thumbnail)
        } catch {
            reportThumbnailFailure(error)
            throw error
        }
    }

    /// Starts loading the track in the background so a broken one is reported early (the controller
    /// calls this when the session begins). Does nothing while thumbnail seeking is unavailable.
    func prefetchThumbnails() {
        guard let source = try? availableThumbnailSource() else { return }
        Task { [weak self] in
            do throws(ThumbnailError) {
                try await source.loadTrack()
            } catch {
                self?.reportThumbnailFailure(error)
            }
        }
    }

    private func availableThumbnailSource() throws(ThumbnailError) -> any ThumbnailSource {
        guard let thumbnailSource else {
            throw ThumbnailError(
                .unavailable,
                "This session has no thumbnail track: give the video a thumbnailVTTURL (or a thumbnails text track); on an engine that makes no thumbnail sources, set the configuration's thumbnailSourceFactory (WebVTTThumbnailSources)"
            )
        }
        guard thumbnailSeekingEnabled() else {
            throw ThumbnailError(.unavailable, "Thumbnail seeking is turned off on the controller; set thumbnailSeekingEnabled = true to use it")
        }
        return thumbnailSource
    }

    /// Sends the failure to the controller once per asset (its URL, else its kind).
    private func reportThumbnailFailure(_ error: ThumbnailError) {
        guard error.kind != .unavailable, !isTerminated else { return }
        let key = "\(error.kind.rawValue) \(error.url ?? "")"
        let isNew = reportedThumbnailFailures.withLock { $0.insert(key).inserted }
        if isNew { send(.thumbnailAssetFailed(sessionID: id, error)) }
    }
}
