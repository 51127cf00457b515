import Foundation
import Testing

@testable import CoveCore

/// The error type's contract: namespaced codes, an explicit severity, a chain of causes, the documented table.
@Suite("Playback errors")
struct PlaybackErrorTests {
    @Test func aPluginsCodeNeverEqualsACoreCodeOrAnotherPluginsCode() {
        let plugin = PlaybackError.Code(plugin: "com.example.drm", rawValue: 1001, name: "loadFailed")
        let other = PlaybackError.Code(plugin: "com.example.ads", rawValue: 1001, name: "loadFailed")
        #expect(plugin != .loadFailed, "same number and name as a core code, another namespace")
        #expect(plugin != other)
        #expect(plugin == PlaybackError.Code(plugin: "com.example.drm", rawValue: 1001, name: "renamed"), "the name is for people")
        #expect(Set([plugin, other, .loadFailed]).count == 3)
        #expect(PlaybackError.Code(plugin: "core", rawValue: 1001, name: "loadFailed") != .loadFailed, "a plugin named core is still a plugin")
        #expect(plugin.description == "com.example.drm.loadFailed" && PlaybackError.Code.loadFailed.description == "loadFailed")
        #expect(PlaybackError.Code.allCore.allSatisfy { $0.namespace == .core })
        #expect(Set(PlaybackError.Code.allCore).count == PlaybackError.Code.allCore.count, "no two core codes share a number")
    }

    @Test func causesChainFromTheNearestToTheRootAndAreRedacted() {
        let engine = PlaybackError.UnderlyingError(
            domain: "gstreamer.resource", code: 3, message: "GET https://cdn.example.com/seg1.ts?token=SECRETSECRET failed")
        let download = PlaybackError(.downloadFailed, "segments stopped", severity: .recoverable, httpStatus: 503, cause: .underlying(engine))
        let failure = PlaybackError(.failedToPlayToEnd, "Playback cannot continue", cause: .playback(download))
        #expect(failure.causeChain == [.playback(download), .underlying(engine)])
        #expect(failure.rootCause == .underlying(engine))
        guard case .underlying(let root) = failure.rootCause else { return }
        #expect(root.domain == "gstreamer.resource" && root.code == 3)
        #expect(!failure.description.contains("SECRETSECRET") && failure.description.contains("gstreamer.resource 3"), "\(failure)")
        #expect(failure.description.contains("downloadFailed"))
    }

    @Test func anyErrorBecomesAnUnderlyingCauseWithItsTypeAsDomain() {
        struct SocketClosed: Error, CustomStringConvertible { var description: String { "closed while reading https://h/x?policyKey=BCpkSECRET" } }
        let cause = PlaybackError.Cause(SocketClosed())
        guard case .underlying(let error) = cause else { Issue.record("\(cause)"); return }
        #expect(error.domain.hasSuffix("SocketClosed"))
        #expect(!error.message.contains("BCpkSECRET"))
        let playback = PlaybackError(.notFound, "gone")
        #expect(PlaybackError.Cause(playback) == .playback(playback), "a Cove error stays itself")
    }

    @Test func severityDefaultsToFatalAndTheEventDecidesIt() {
        let error = PlaybackError(.notFound, "bumper.m3u8 answered 404")
        #expect(error.severity == .fatal)
        #expect(LifecycleEvent.error(error).withErrorSeverity().error?.severity == .recoverable)
        #expect(LifecycleEvent.bumperFailedToPlayToEndTime(error).withErrorSeverity().error?.severity == .recoverable)
        let recoverable = error.with(severity: .recoverable)
        #expect(LifecycleEvent.fail(recoverable).withErrorSeverity().error?.severity == .fatal)
        #expect(LifecycleEvent.failedToPlayToEndTime(recoverable).withErrorSeverity().error?.severity == .fatal)
        #expect(LifecycleEvent.resumeFail(recoverable).withErrorSeverity().error?.severity == .fatal)
        #expect(LifecycleEvent.play.errorSeverity == nil)
    }

    /// The documentation's table lists every core code with its number, and nothing else.
    @Test func theErrorsArticleListsEveryCoreCode() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/CoveCore/CoveCore.docc/PlaybackErrors.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row -> (String, Int?) in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), Int(cells[1]))
        }
        let documented = rows.map { "\($0.0) \($0.1 ?? -1)" }
        let defined = PlaybackError.Code.allCore.map { "\($0.name) \($0.rawValue)" }
        #expect(documented == defined)
        // And `allCore` holds every core code the source declares.
        let source = try String(contentsOf: article.deletingLastPathComponent().appendingPathComponent("../Errors/PlaybackError+Code.swift"), encoding: .utf8)
        #expect(source.components(separatedBy: "= Code(core:").count - 1 == PlaybackError.Code.allCore.count)
    }
}
