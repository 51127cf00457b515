import Foundation
import Synchronization

/// Remembers the viewer's caption choice — a language, or captions off — across sessions and launches,
/// in a small JSON file the app can put where it likes (the seed's persisted media selection).
///
/// Reading a missing or broken file means "no choice yet"; a file that cannot be written is logged by
/// the controller and never disturbs playback.
public final class CaptionPreferences: Sendable {
    /// What the viewer last chose.
    public enum Choice: Sendable, Hashable {
        case language(String)
        case off
    }

    public let fileURL: URL
    private let cached = Mutex<Choice??>(nil)

    public init(fileURL: URL = CaptionPreferences.defaultFileURL) {
        self.fileURL = fileURL
    }

    /// `$XDG_CONFIG_HOME/cove/preferences.json`, else `~/.config/cove/preferences.json`.
    public static var defaultFileURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("cove").appendingPathComponent("preferences.json")
    }

    /// The stored choice, nil when none was made (or the file is unreadable).
    public var choice: Choice? {
        if let known = cached.withLock({ $0 }) { return known }
        let loaded = Self.read(fileURL)
        cached.withLock { $0 = .some(loaded) }
        return loaded
    }

    /// Stores `choice` (nil forgets it). Throws when the file cannot be written.
    public func save(_ choice: Choice?) throws {
        var object: JSONObject = (try? Data(contentsOf: fileURL)).flatMap { try? JSONValue.parse(Array($0)).objectValue } ?? [:]
        switch choice {
        case .language(let language): object["captions"] = .object(["enabled": true, "language": .string(language)])
        case .off: object["captions"] = .object(["enabled": false])
        case nil: object["captions"] = nil
        }
        try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(JSONValue.object(object).serialized(pretty: true).utf8).write(to: fileURL, options: .atomic)
        cached.withLock { $0 = .some(choice) }
    }

    private static func read(_ url: URL) -> Choice? {
        guard let data = try? Data(contentsOf: url), data.count <= 64 * 1024,
            let captions = (try? JSONValue.parse(Array(data)))?["captions"]
        else { return nil }
        if captions["enabled"]?.boolValue == false { return .off }
        return captions["language"]?.stringValue.map(Choice.language)
    }
}
