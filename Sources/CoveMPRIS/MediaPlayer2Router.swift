import CCoveMPRIS
import CoveCore
import Foundation
import Logging
import Synchronization

/// Joins the three parties: the controller's events go into the model and out to the bus; the bus's
/// requests go into the model and out to the controller (or the app's closures). The C side's handler
/// context points at this object.
///
/// The model's lock is held while a snapshot goes to the bus, so snapshots reach the bus in the order
/// the model produced them, whichever thread (the event task, the bus thread, an app setting
/// `onQuit`) produced them.
final class MediaPlayer2Router: Sendable {
    /// Held weakly: attaching MPRIS must not keep a controller alive that the app let go.
    private weak let controller: PlaybackController?
    private let model: Mutex<Model>
    let bus = MediaPlayer2Bus()
    private let hooks = Mutex<Hooks>(Hooks())
    private let logger: Logger
    private let origin = ContinuousClock.now

    private struct Model {
        var state: MediaPlayer2Model
        var published: MediaPlayer2Snapshot?
    }

    private struct Hooks {
        var quit: (@Sendable () -> Void)?
        var raise: (@Sendable () -> Void)?
    }

    init(controller: PlaybackController, logger: Logger) {
        self.controller = controller
        self.logger = logger
        let session = controller.currentSession
        let now = ContinuousClock.now - origin
        let state = MediaPlayer2Model(
            commands: controller.availableCommands, volume: AudioVolume(level: controller.volume, isMuted: controller.isMuted),
            rate: controller.playbackRate, session: session.map { ($0.id, $0.video, $0.source?.url) }, status: session?.player?.status, at: now)
        self.model = Mutex(Model(state: state))
    }

    private var now: Duration { ContinuousClock.now - origin }

    /// Publishes the current state (once the bus is up, and after a hook changed).
    func publish() {
        model.withLock { model in
            publishLocked(&model)
            if let position = model.state.position(at: now) { bus.setPosition(position) }
        }
    }

    // MARK: Controller events

    /// Follows the controller until its event stream ends (shutdown) or the task is cancelled.
    func follow(_ events: AsyncStream<PlaybackEvent>) async {
        for await event in events {
            guard let observation = MediaPlayer2Observation(event) else { continue }
            observe(observation)
        }
        if !Task.isCancelled { observe(.ended) }
    }

    private func observe(_ observation: MediaPlayer2Observation) {
        let rate = controller?.playbackRate
        model.withLock { model in
            let now = self.now
            if let rate { model.state.setRate(rate, at: now) }
            let update = model.state.observe(observation, at: now)
            publishLocked(&model)
            switch update {
            case .position(let position): bus.setPosition(position)
            case .seeked(let position): bus.seeked(to: position)
            case nil: break
            }
        }
    }

    private func seekLanded(at target: Duration, in session: Int?) {
        model.withLock { model in
            switch model.state.seekLanded(at: target, in: session, at: now) {
            case .position(let position): bus.setPosition(position)
            case .seeked(let position): bus.seeked(to: position)
            case nil: break
            }
        }
    }

    private func publishLocked(_ model: inout Model) {
        let snapshot = model.state.snapshot
        guard snapshot != model.published else { return }
        model.published = snapshot
        bus.publish(snapshot)
    }

    // MARK: Client requests (on the bus thread)

    func handle(_ request: MediaPlayer2Request) {
        let actions = model.withLock { model in
            let actions = model.state.plan(request, at: now)
            publishLocked(&model)
            return actions
        }
        logger.debug("MPRIS request", metadata: ["request": "\(request)", "actions": "\(actions)"])
        for action in actions { perform(action) }
    }

    private func perform(_ action: MediaPlayer2Action) {
        if case .ignore(let reason) = action {
            logger.info("MPRIS request ignored", metadata: ["reason": "\(reason)"])
            return
        }
        if case .raise = action { return run(hooks.withLock { $0.raise }) }
        if case .quit = action { return run(hooks.withLock { $0.quit }) }
        guard let controller else {
            logger.info("MPRIS request ignored", metadata: ["reason": "the controller is gone"])
            return
        }
        switch action {
        case .play: controller.play()
        case .pause: controller.pause()
        case .seek(let time):
            let session = model.withLock { $0.state.sessionID }
            controller.seek(to: time) { [weak self] landed in
                if landed, let target = time.duration { self?.seekLanded(at: target, in: session) }
            }
        case .advanceToNext: controller.advanceToNext()
        case .setVolume(let level):
            controller.volume = level
            // Volume is what is heard: a client raising it from a muted 0 means "unmute".
            if level > 0, controller.isMuted { controller.isMuted = false }
        case .setRate(let rate): controller.playbackRate = rate
        case .open(let url):
            controller.setVideos([Video(url: url)])
            controller.play()
        case .raise, .quit, .ignore: break
        }
    }

    /// The app's closures run off the bus thread: one that stops the service (a Quit that ends the
    /// app) would otherwise wait for the thread it runs on.
    private func run(_ hook: (@Sendable () -> Void)?) {
        guard let hook else { return }
        Task.detached { hook() }
    }

    // MARK: The app's hooks

    var onQuit: (@Sendable () -> Void)? {
        get { hooks.withLock { $0.quit } }
        set {
            hooks.withLock { $0.quit = newValue }
            model.withLock { model in
                model.state.canQuit = newValue != nil
                publishLocked(&model)
            }
        }
    }

    var onRaise: (@Sendable () -> Void)? {
        get { hooks.withLock { $0.raise } }
        set {
            hooks.withLock { $0.raise = newValue }
            model.withLock { model in
                model.state.canRaise = newValue != nil
                publishLocked(&model)
            }
        }
    }
}

/// The C side's request handler: decodes the request and hands it to the router in `context`.
let mediaPlayer2RequestHandler: CoveMprisHandler = { context, request in
    guard let context, let request, let decoded = MediaPlayer2Request(request.pointee) else { return }
    Unmanaged<MediaPlayer2Router>.fromOpaque(context).takeUnretainedValue().handle(decoded)
}
