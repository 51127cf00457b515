import CoveCore
import Foundation

/// The event log's wording: one line per event worth a line (`cove play`'s log, the controls' log).
public enum EventLogLine {
    /// nil for events too frequent to print (progress, transfers).
    public static func text(for event: PlaybackEvent) -> String? {
        switch event {
        case .progress, .lifecycle(_, .bumperProgress), .mediaTransferred: return nil
        case .sessionAdvanced(let s) where s.bumper != nil:
            return "Session \(s.id): \(s.video.name ?? "video") (after the bumper “\(s.bumper?.name ?? "")”)"
        case .lifecycle(_, let e):
            if let error = e.error { return "\(e.name): \(error.message)" }
            return e.name
        case .sessionAdvanced(let s):
            return "Session \(s.id): \(s.video.name ?? s.source.map { Redaction.redact(url: $0.url) } ?? "video")"
        case .durationChanged(_, let d):
            return "Duration \(d.map { Terminal.clock(MediaTime($0).seconds) } ?? "live")"
        case .cuePointsPassed(_, let p):
            return "Cue points (\(p.previousTime) → \(p.currentTime)]: " + p.cuePoints.map { "\($0.type)@\($0.position)" }.joined(separator: ", ")
        case .variantChanged(_, let v):
            return "Variant \(v.to) (\(v.reason.rawValue)\(v.from.map { ", was \($0)" } ?? ""))"
        case .variantsDiscovered(_, let ladder):
            return "Variants: " + ladder.variants.map(\.description).joined(separator: ", ")
        case .forwardBufferChanged(_, let d):
            return "Forward buffer \(Terminal.clock(MediaTime(d).seconds))"
        case .retry(_, let r):
            return "Retry \(r.attempt)/\(r.maximumAttempts.map(String.init) ?? "∞") (\(r.kind.rawValue)) in \(r.delay): \(r.error.message)"
        case .adSequenceEntered(_, let q):
            return
                "Ad break \(q.index + 1): \(q.ads.count) ad\(q.ads.count == 1 ? "" : "s"), \(Terminal.clock(MediaTime(q.duration).seconds)) at content \(Terminal.clock(q.contentTime.seconds))"
        case .adEntered(_, let a):
            return
                "Ad “\(a.title ?? a.adID ?? "untitled")” (\(Terminal.clock(MediaTime(a.duration).seconds)))\(a.clickThroughURL.map { ", learn more: \($0)" } ?? "")"
        case .adExited(_, let a): return "Ad “\(a.title ?? a.adID ?? "untitled")” ended"
        case .adSequenceExited(_, let q): return "Ad break \(q.index + 1) ended"
        case .adProgressed: return nil
        case .framePresented(_, let f):
            switch f.cause {
            case .start: return "First frame"
            case .seek: return "Frame at seek target"
            case .bumper: return "First bumper frame"
            case .resume: return "First frame after the rebuild"
            case .transition: return "First frame of the preloaded video"
            }
        default:
            return event.description
        }
    }
}
