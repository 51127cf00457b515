import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation

/// Pointer and keys: hit-tested against the regions of the last painting, so what is pressed is what
/// the viewer sees.
extension ViewLoop {
    func handle(_ event: WindowEvent) {
        switch event {
        case .expose:
            overlay.setNeedsDisplay()
        case .resized(let width, let height):
            size = OverlayImage.Size(width: width, height: height)
            isFullscreen = window?.isFullscreen ?? false
        case .pointerMoved(let x, let y):
            handle(PlayerViewInput.pointerMoved(x: x, y: y))
        case .pressed(let button, let x, let y):
            handle(PlayerViewInput.pointerPressed(x: x, y: y, button: button))
        case .released:
            break
        case .key(let key):
            handle(PlayerViewInput.key(key))
        case .pointerLeft:
            handle(PlayerViewInput.pointerLeft)
        case .closeRequested:
            emit(.closeRequested)
        case .disconnected:
            emit(.windowLost)
        }
    }

    func handle(_ input: PlayerViewInput) {
        switch input {
        case .pointerMoved(let x, let y):
            visibility.noteActivity(at: now)
            pointerMoved(x: x, y: y)
        case .pointerPressed(let x, let y, let button):
            visibility.noteActivity(at: now)
            pressed(button: button, x: x, y: y)
        case .pointerLeft:
            hover = nil
            if !scrubbingByKeyboard { preview = nil }
        case .key(let key):
            let wasShown = controlsShown
            visibility.noteActivity(at: now)
            pressed(key, controlsWereShown: wasShown)
        }
    }

    // MARK: Pointer

    private func pointerMoved(x: Double, y: Double) {
        let region = regions.hit(x: x, y: y)
        hover = region?.isEnabled == true ? region?.target : nil
        guard case .progress? = region?.target, let region, region.isEnabled, !controls.isLive else {
            if !scrubbingByKeyboard { preview = nil }
            return
        }
        showPreview(at: fraction(in: region.rect, x: x))
    }

    /// The fraction of the progress bar at `x` (right to left, the bar fills from the right).
    private func fraction(in rect: ViewRect, x: Double) -> Double {
        let track = rect.insetBy(4 * (Double(size?.height ?? 720) / 720).clamped(0.5, 4), 0)
        guard track.width > 0 else { return 0 }
        let value = ((x - track.x) / track.width).clamped(0, 1)
        return localizer.isRightToLeft ? 1 - value : value
    }

    private func showPreview(at fraction: Double) {
        guard let duration = controls.bar.duration, duration > .zero else { return }
        let time = duration * fraction
        preview = ViewScene.Preview(
            fraction: fraction, time: time, thumbnail: preview.flatMap { abs(($0.time - time) / .seconds(1)) < 1.5 ? $0.thumbnail : nil })
        requestThumbnail(at: time)
    }

    private func requestThumbnail(at time: Duration) {
        guard let session = controls.session, session.isThumbnailSeekingAvailable, images.codec != nil else { return }
        let second = Duration.seconds((time / .seconds(1)).rounded())
        guard thumbnailWanted != second else { return }
        thumbnailWanted = second
        let images = self.images
        let send = self.send
        Task {
            let png = try? await session.thumbnailImage(at: MediaTime(time))
            let image = png.flatMap { try? images.decode($0).get() }
            send(.thumbnail(time, image))
        }
    }

    private func pressed(button: Int, x: Double, y: Double) {
        guard let actions else { return }
        switch button {
        case 4, 5:
            say(actions.perform(.changeVolume(by: button == 4 ? 0.05 : -0.05), state: &controls))
            return
        case 1:
            break
        default:
            return
        }
        let region = regions.hit(x: x, y: y)
        guard let region else {
            // The picture itself: a menu closes; a double click toggles full screen (mpv's and VLC's habit).
            if menu != nil {
                closeMenu()
                return
            }
            if let last = lastPress, now - last.at < .milliseconds(400), abs(last.x - x) < 8, abs(last.y - y) < 8 {
                lastPress = nil
                setFullscreen(!isFullscreen)
            } else {
                lastPress = (now, x, y)
            }
            return
        }
        lastPress = nil
        guard region.isEnabled else { return }
        switch region.target {
        case .control(let tag, _, _):
            activate(tag, from: region.target)
        case .progress:
            say(actions.perform(.seekToFraction(fraction(in: region.rect, x: x)), state: &controls))
            preview = nil
        case .menuItem(let index):
            choose(index)
        case .menuPanel:
            break
        }
    }

    // MARK: Controls

    /// What pressing a control does (a click, or Enter on the focused one).
    func activate(_ tag: ControlTag, from target: HitTarget) {
        guard let actions else { return }
        switch tag {
        case .playback: say(actions.perform(.togglePlayback, state: &controls))
        case .jumpBack: say(actions.perform(.jumpBack, state: &controls))
        case .closedCaption: toggleMenu(.captions, opener: target)
        case .preferredBitrate: toggleMenu(.bitrate, opener: target)
        case .screenMode: setFullscreen(!isFullscreen)
        case .live: if !controls.bar.isAtLiveEdge { say(actions.perform(.goToLive, state: &controls)) }
        case .learnMore: say(actions.perform(.learnMore, state: &controls))
        case .skip, .skipAdCountdown: say(actions.perform(.skipAd, state: &controls))
        case .volume: say(actions.perform(.toggleMute, state: &controls))
        case .custom(let name): emit(.customControlActivated(name))
        case .progress:
            // From the keyboard: a preview at the playhead that the arrows move and Enter seeks to.
            guard let duration = controls.bar.duration, duration > .zero, !controls.isLive else { return }
            scrubbingByKeyboard = true
            showPreview(at: (controls.bar.position / duration).clamped(0, 1))
        case .currentTime, .timeSeparator, .duration, .empty, .externalRoute, .adPodCountdown, .video360, .pictureInPicture:
            break
        }
    }

    private func toggleMenu(_ kind: ControlMenu.Kind, opener: HitTarget) {
        if menu?.kind == kind {
            closeMenu()
            return
        }
        guard let session = controls.session, let controller else { return }
        menu =
            kind == .captions
            ? ControlMenu.captions(session: session, controller: controller, localizer: localizer)
            : ControlMenu.bitrate(appMenu: options.bitrateMenu, session: session, controller: controller, localizer: localizer)
        menuOpener = opener
        if focus != nil { focus = .menuItem(menu?.selected ?? 0) }
    }

    private func closeMenu() {
        menu = nil
        if focus != nil { focus = menuOpener }
        menuOpener = nil
    }

    private func choose(_ index: Int) {
        guard let actions, var menu, menu.items.indices.contains(index) else { return }
        menu.select(index)
        let action = menu.items[index].action
        closeMenu()
        say(actions.perform(action, state: &controls))
    }

    func setFullscreen(_ fullscreen: Bool) {
        guard let window, window.isTopLevel else {
            emit(.fullscreenRequested(fullscreen))
            return
        }
        window.setFullscreen(fullscreen)
        isFullscreen = fullscreen
        emit(.fullscreenChanged(fullscreen))
    }

    // MARK: Keys

    private func pressed(_ key: ViewKey, controlsWereShown: Bool) {
        guard let actions else { return }
        // Keys that act the same whatever has the focus.
        switch key {
        case .character(" "), .playPause: return say(actions.perform(.togglePlayback, state: &controls))
        case .play: return say(actions.perform(.play, state: &controls))
        case .pause: return say(actions.perform(.pause, state: &controls))
        case .stop:
            controller?.pause()
            return say(actions.perform(.seekTo(.zero), state: &controls))
        case .next: controller?.advanceToNext(); return
        case .previous: return say(actions.perform(.seekTo(.zero), state: &controls))
        case .mute, .character("m"): return say(actions.perform(.toggleMute, state: &controls))
        case .volumeUp, .character("0"): return say(actions.perform(.changeVolume(by: 0.1), state: &controls))
        case .volumeDown, .character("9"): return say(actions.perform(.changeVolume(by: -0.1), state: &controls))
        case .fastForward: return say(actions.perform(.seekBy(.seconds(10)), state: &controls))
        case .rewind: return say(actions.perform(.seekBy(.zero - .seconds(10)), state: &controls))
        case .character("f"): return setFullscreen(!isFullscreen)
        case .character("j"): return say(actions.perform(.jumpBack, state: &controls))
        case .character("c"): return toggleMenu(.captions, opener: regions.region(of: .closedCaption)?.target ?? .menuPanel)
        case .character("b"): return toggleMenu(.bitrate, opener: regions.region(of: .preferredBitrate)?.target ?? .menuPanel)
        case .character("g"): return say(actions.perform(.goToLive, state: &controls))
        case .character("s"): return say(actions.perform(.skipAd, state: &controls))
        case .character("l"): return say(actions.perform(.learnMore, state: &controls))
        case .character("+"), .character("="): return say(actions.perform(.changeRate(by: 0.25), state: &controls))
        case .character("-"): return say(actions.perform(.changeRate(by: -0.25), state: &controls))
        default: break
        }
        if var open = menu {
            switch key {
            case .up: open.move(by: -1)
            case .down: open.move(by: 1)
            case .enter: return choose(open.selected)
            case .escape, .back, .left, .right: return closeMenu()
            default: return
            }
            menu = open
            if focus != nil { focus = .menuItem(open.selected) }
            return
        }
        if scrubbingByKeyboard, let current = preview {
            switch key {
            case .left, .right:
                guard let duration = controls.bar.duration, duration > .zero else { return }
                let step = (key == .right) != localizer.isRightToLeft ? 10.0 : -10.0
                showPreview(at: ((current.time + .seconds(step)) / duration).clamped(0, 1))
            case .enter:
                scrubbingByKeyboard = false
                preview = nil
                say(actions.perform(.seekTo(current.time), state: &controls))
            case .escape, .back:
                scrubbingByKeyboard = false
                preview = nil
            default: break
            }
            return
        }
        guard controlsWereShown else {
            // Hidden controls: the first key shows them; left and right seek at once (a TV's habit).
            switch key {
            case .left: say(actions.perform(.seekBy(.zero - .seconds(10)), state: &controls))
            case .right: say(actions.perform(.seekBy(.seconds(10)), state: &controls))
            default: if focus == nil { focus = FocusRing.initial(regionsForFocus()) }
            }
            return
        }
        switch key {
        case .left: focus = FocusRing.move(from: focus, .left, in: regionsForFocus())
        case .right: focus = FocusRing.move(from: focus, .right, in: regionsForFocus())
        case .up: focus = FocusRing.move(from: focus, .up, in: regionsForFocus())
        case .down: focus = FocusRing.move(from: focus, .down, in: regionsForFocus())
        case .tab: focus = FocusRing.move(from: focus, .next, in: regionsForFocus())
        case .backTab: focus = FocusRing.move(from: focus, .previous, in: regionsForFocus())
        case .enter:
            guard let focus else {
                self.focus = FocusRing.initial(regionsForFocus())
                return
            }
            guard let region = regions.region(of: focus), region.isEnabled, let tag = focus.tag else { return }
            activate(tag, from: focus)
        case .escape, .back:
            if isFullscreen {
                setFullscreen(false)
            } else {
                focus = nil
            }
        default:
            break
        }
    }

    /// The regions to move the focus among: the last painting's (the controls are drawn while a key is
    /// handled, since any key shows them).
    private func regionsForFocus() -> [HitRegion] { regions }
}

extension Comparable {
    func clamped(_ low: Self, _ high: Self) -> Self { min(max(self, low), high) }
}
