import ArgumentParser
import CoveCore
import CoveNetworking
import CovePlayerControls
import Foundation

/// `cove analytics tail`: what a stand-in collector (`cove serve`) received.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Look at the analytics a stand-in collector received.",
        subcommands: [Tail.self]
    )

    struct Tail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the events a stand-in collector (`cove serve`) received, one per line, as they arrive (Ctrl-C to stop)."
        )

        @Argument(help: "The collector's server, as `cove serve` prints it (its /v2/received lists the events).")
        var server: String

        @Flag(help: "Print what was received so far and exit.")
        var once = false

        @Flag(help: "One JSON object per line.")
        var json = false

        func run() async throws {
            guard let base = URL(string: server), ["http", "https"].contains(base.scheme?.lowercased() ?? ""), base.host != nil else {
                throw ValidationError("'\(server)' is not the http(s) URL of a stand-in collector")
            }
            var seen = 0
            while true {
                var components = URLComponents(url: base.appendingPathComponent("v2/received"), resolvingAgainstBaseURL: false)
                components?.queryItems = [URLQueryItem(name: "since", value: String(seen))]
                guard let url = components?.url else { throw ValidationError("'\(server)' cannot be extended with /v2/received") }
                let response: HTTPResponse
                do {
                    response = try await AsyncHTTPClientTransport.shared.send(HTTPRequest(url: url, timeout: .seconds(5)))
                } catch {
                    Terminal.error("cove analytics tail: the collector at \(Redaction.redact(url: base)) did not answer (\(error)); is `cove serve` running?")
                    throw ExitCode(1)
                }
                guard response.isSuccess, let events = try? JSONValue.parse(response.body).arrayValue else {
                    Terminal.error(
                        "cove analytics tail: \(Redaction.redact(url: url)) answered HTTP \(response.status) without the list a stand-in collector gives")
                    throw ExitCode(1)
                }
                for event in events {
                    Terminal.line(json ? event.serialized() : Self.line(event))
                }
                seen += events.count
                if once { return }
                try? await Task.sleep(for: .seconds(1))
            }
        }

        /// `video_engagement video=… range=3..10 …`: the event and its telling parameters.
        static func line(_ event: JSONValue) -> String {
            let name = event["event"]?.stringValue ?? "?"
            let parameters = event["parameters"]?.objectValue ?? [:]
            let shown = ["video", "range", "video_seconds_viewed", "error_code", "account", "user"].compactMap { key in
                parameters[key]?.stringValue.map { "\(key)=\($0)" }
            }
            return ([name] + shown).joined(separator: " ")
        }
    }
}
