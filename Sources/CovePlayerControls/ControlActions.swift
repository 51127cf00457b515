import CoveCore
import CovePlayerUI
import CoveSSAI
import Foundation

/// Carries out `ControlAction`s on a controller: the rules every front end shares (seek targets kept
/// inside the content or the DVR window, what the controller allows now, the bitrate label, the
/// messages), so the terminal bar and the player view behave alike.
public struct ControlActions: Sendable {
    public let controller: PlaybackController
    public let options: PlayerUIOptions
    public let localizer: Localizer

    public init(controller: PlaybackController, options: PlayerUIOptions = .standard, localizer: Localizer = Localizer()) {
        self.controller = controller
        self.options = options
        self.localizer = localizer
    }

    /// Performs `action`; what to show the viewer comes back (nil: the events will tell).
    @discardableResult
    public func perform(_ action: ControlAction, state: inout PlayerControlsState) -> ControlFeedback? {
        switch action {
        case .togglePlayback:
            if state.bar.isPlaying { controller.pause() } else { controller.play() }
        case .play:
            controller.play()
        case .pause:
            controller.pause()
        case .seekBy(let step):
            return seek(by: step, state: &state)
        case .jumpBack:
            return seek(by: .zero - options.jumpBackInterval, state: &state)
        case .seekToFraction(let fraction):
            guard state.canSeek else { return blockedSeekMessage(state) }
            let fraction = fraction.isFinite ? min(1, max(0, fraction)) : 0
            if state.isLive {
                guard state.videoType == .liveDVR, let start = state.liveEdge.windowStart, let end = state.liveEdge.windowEnd else { return nil }
                controller.seek(to: MediaTime(state.liveEdge.clamped(start + (end - start) * fraction)))
                state.followingLive = false
            } else if let duration = state.bar.duration {
                controller.seek(to: MediaTime(duration * fraction))
            }
        case .seekTo(let target):
            guard state.canSeek else { return blockedSeekMessage(state) }
            controller.seek(to: MediaTime(max(.zero, target)))
        case .goToLive:
            guard state.isLive, let target = state.liveEdge.liveTarget else { return nil }
            controller.seek(to: MediaTime(target))
            // Following again once there (the learnt offset would be taught by the landing anyway).
            state.followingLive = true
        case .selectAudioTrack(let track):
            state.session?.selectAudioTrack(track)
            return .message(localizer.string(.audioSelection, [.name: controller.title(for: track)]))
        case .selectTextTrack(let track):
            state.session?.selectTextTrack(track)
            return .message(localizer.string(.captionsSelection, [.name: track.map { controller.title(for: $0) } ?? localizer.string(.off)]))
        case .selectBitrate(let option):
            controller.setPreferredPeakBitRate(option.isAutomatic ? nil : option.bitrate)
            // The bar has room for the short name ("720p"), the menu for the whole title.
            state.bar.bitrateLabel =
                option.isAutomatic
                ? localizer.string(.auto) : String(option.title.split(separator: "·").first ?? Substring(option.title)).trimmingCharacters(in: .whitespaces)
            return .message(localizer.string(.bitrateSelection, [.name: option.title]))
        case .changeVolume(let step):
            controller.volume = min(1, max(0, ((controller.volume + step) * 100).rounded() / 100))
            if controller.isMuted { controller.isMuted = false }
            return .message(Self.volumeText(controller.volume, muted: false))
        case .setVolume(let level):
            controller.volume = AudioVolume.clamp(level)
            if controller.isMuted { controller.isMuted = false }
            return .message(Self.volumeText(controller.volume, muted: false))
        case .toggleMute:
            controller.isMuted.toggle()
            return .message(Self.volumeText(controller.volume, muted: controller.isMuted))
        case .changeRate(let step):
            controller.playbackRate = min(4, max(0.25, controller.playbackRate + step))
            return .message(Self.rateText(controller.playbackRate))
        case .skipAd:
            if state.session?.ssai?.skipAd() != true, state.bar.phase.isAd {
                return .message(localizer.string(.skipAdIn, [.time: TimeText.clock(state.bar.skipIn ?? .zero, rounding: .up)]))
            }
        case .learnMore:
            if let url = state.session?.ssai?.clickThrough() {
                return .openURL(url, message: localizer.string(.learnMore) + ": " + url.absoluteString)
            }
        }
        return nil
    }

    private func seek(by step: Duration, state: inout PlayerControlsState) -> ControlFeedback? {
        guard state.canSeek else { return blockedSeekMessage(state) }
        if state.isLive {
            // Stream time, inside the DVR window and short of the live position; live without DVR cannot seek.
            guard state.videoType == .liveDVR, let position = state.liveEdge.position else { return nil }
            controller.seek(to: MediaTime(state.liveEdge.clamped(position + step)))
            state.followingLive = false
            return nil
        }
        let target = max(.zero, state.bar.position + step)
        controller.seek(to: MediaTime(state.bar.duration.map { min(target, $0) } ?? target))
        return nil
    }

    /// The seed's bumper look has no seeking controls at all; during an ad say when the video resumes.
    private func blockedSeekMessage(_ state: PlayerControlsState) -> ControlFeedback? {
        guard case .ad(let ad) = state.bar.phase else { return nil }
        return .message(
            localizer.string(.advertisement) + ": " + localizer.string(.videoWillResumeIn, [.time: TimeText.clock(ad.timeLeft ?? .zero, rounding: .up)]))
    }

    /// "🔈 50 %", "🔇 50 %": the level as the viewer set it (symbols, so no language needs a string).
    public static func volumeText(_ level: Double, muted: Bool) -> String {
        (muted ? "🔇 " : "🔈 ") + "\(Int((level * 100).rounded())) %"
    }

    /// "1×", "1.25×", "0.5×": the rate with no trailing zeros.
    public static func rateText(_ rate: Double) -> String {
        var text = String(format: "%.2f", rate)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }
}
