import Foundation

/// Text a plugin offers while an interstitial plays (an SSAI ad's own closed captions): listed beside
/// the content's tracks and, when the viewer has captions on, shown in place of the content's track
/// for as long as the interstitial plays — as IMA and Media3 show an ad's captions when the content's
/// are on. The content's selection is never changed, so it is simply there again afterwards.
///
/// Separate because it is the one place where the shown text is not the selected content track.
extension LoopState {
    /// `tracks` are offered now (empty: withdrawn). Captions on — an interstitial track shown already,
    /// or a content track selected — shows the offered track in the language on screen, else the first.
    func offerInterstitialText(_ tracks: [SidecarTextTrack], in runtime: SessionRuntime) {
        let shown = runtime.session.selectedTextTrack
        let captionsOn = runtime.interstitialTextID != nil || shown != nil
        runtime.interstitialTextTracks = tracks
        runtime.interstitialTextID = nil
        if captionsOn, let first = tracks.first {
            let offered = MediaTrackGroup(kind: .text, tracks: tracks.map(\.mediaTrack))
            let match = shown?.language.flatMap { offered.track(preferring: [$0]) }
            runtime.interstitialTextID = (match ?? first.mediaTrack).id
        }
        publishTracks(runtime)
        updateTextCues(runtime, at: runtime.player?.position ?? runtime.lastReportedTime)
    }

    /// The offered interstitial track with `id`, if any.
    func interstitialTrack(_ id: String?, in runtime: SessionRuntime) -> SidecarTextTrack? {
        guard let id else { return nil }
        return runtime.interstitialTextTracks.first { $0.mediaTrack.id == id }
    }

    /// The stream text the engine should keep showing when only the audio changes: the last asked, else
    /// the content's selection — never a sidecar or interstitial track, which the engine does not know.
    func streamTextSelection(_ runtime: SessionRuntime) -> String? {
        guard runtime.selectedSidecarID == nil else { return nil }
        if let requested = runtime.requestedStreamTextID { return requested }
        let selected = runtime.session.selectedTextTrack?.id
        return selected?.hasPrefix(SidecarTextTrack.idPrefix) == true ? nil : selected
    }
}
