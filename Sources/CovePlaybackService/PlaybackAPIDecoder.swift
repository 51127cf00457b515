import CoveCore
import Foundation

/// Turns Playback API JSON into Cove values, field for field:
///
/// * `sources[]` → `Source`: `src` is the URL, `type` (or `container: MP4`) the delivery method; every
///   other field (`container`, `codec(s)`, `avg_bitrate`, `size`, `key_systems`, `vmap`, …) stays in
///   `properties` under its wire name. Entries without `src` (legacy RTMP) are skipped.
/// * `cue_points[]` → `CuePoint`: `time` is seconds, `type` defaults to `AD`; the rest is kept.
/// * every other top-level field stays in `Video.properties` (`duration` in milliseconds, `text_tracks`,
///   `custom_fields`, `tags`, `economics`, `offline_enabled`, `projection`, `poster_sources`, …).
/// * playlist entries that carry `error_code` become error videos.
///
/// Pure functions of JSON; wrong field types are typed errors naming the field.
public enum PlaybackAPIDecoder {
    public struct DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
        public let path: String
        public let problem: String
        public var description: String { "\(path): \(problem)" }
    }

    public static func video(from value: JSONValue, path: String = "video") throws(DecodingFailure) -> Video {
        guard case .object(var object) = value else { throw DecodingFailure(path: path, problem: "expected an object, found \(kind(value))") }
        let sources = try self.sources(object.removeValue(forKey: Video.PropertyKey.sources), path: path + ".sources")
        let cuePoints = try self.cuePoints(object.removeValue(forKey: Video.PropertyKey.cuePoints), path: path + ".cue_points")
        try expect(object, Video.PropertyKey.duration, path: path, allowed: [.number, .null])
        try expect(object, Video.PropertyKey.id, path: path, allowed: [.string, .number, .null])
        try expect(object, Video.PropertyKey.name, path: path, allowed: [.string, .null])
        try expect(object, Video.PropertyKey.textTracks, path: path, allowed: [.array, .null])
        try expect(object, Video.PropertyKey.tags, path: path, allowed: [.array, .null])
        try expect(object, Video.PropertyKey.customFields, path: path, allowed: [.object, .null])
        try expect(object, Video.PropertyKey.offlineEnabled, path: path, allowed: [.bool, .null])
        if let failure = videoError(in: object) {
            return Video(error: failure, properties: object)
        }
        return Video(sources: sources, cuePoints: CuePointCollection(cuePoints), properties: object)
    }

    /// The error code of a playlist entry Cove could not decode (the rest of the playlist still plays).
    public static let malformedVideoCode = "MALFORMED_VIDEO"

    public static func playlist(from value: JSONValue, path: String = "playlist") throws(DecodingFailure) -> Playlist {
        guard case .object(var object) = value else { throw DecodingFailure(path: path, problem: "expected an object, found \(kind(value))") }
        let entries = object.removeValue(forKey: "videos") ?? .array([])
        guard case .array(let list) = entries else { throw DecodingFailure(path: path + ".videos", problem: "expected an array, found \(kind(entries))") }
        var videos: [Video] = []
        for (index, entry) in list.enumerated() {
            do {
                videos.append(try video(from: entry, path: "\(path).videos[\(index)]"))
            } catch {
                // One bad entry costs that video, not the playlist: it becomes an error video saying why.
                var properties = entry.objectValue ?? [:]
                properties.removeValue(forKey: Video.PropertyKey.sources)
                properties.removeValue(forKey: Video.PropertyKey.cuePoints)
                videos.append(
                    Video(
                        error: VideoError(code: malformedVideoCode, message: "Cove could not decode this playlist entry: \(error.description)"),
                        properties: properties))
            }
        }
        return Playlist(videos: videos, properties: object)
    }

    /// Reads the error array of a failed request: `[{error_code, error_subcode, message}]` (also accepted
    /// wrapped as `{"errors": [...]}` and as a single object). nil when the body is not one.
    public static func apiErrors(from value: JSONValue) -> [PlaybackAPIError]? {
        let list: [JSONValue]
        switch value {
        case .array(let array): list = array
        case .object(let object):
            if let wrapped = object["errors"]?.arrayValue { list = wrapped } else { list = [value] }
        default: return nil
        }
        let errors = list.compactMap { entry -> PlaybackAPIError? in
            guard let object = entry.objectValue, let code = object["error_code"]?.stringValue else { return nil }
            return PlaybackAPIError(code: code, subcode: object["error_subcode"]?.stringValue, message: object["message"]?.stringValue, properties: object)
        }
        return errors.isEmpty ? nil : errors
    }

    static func sources(_ value: JSONValue?, path: String) throws(DecodingFailure) -> [Source] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let list) = value else { throw DecodingFailure(path: path, problem: "expected an array, found \(kind(value))") }
        var result: [Source] = []
        for (index, entry) in list.enumerated() {
            guard case .object(var object) = entry else {
                throw DecodingFailure(path: "\(path)[\(index)]", problem: "expected an object, found \(kind(entry))")
            }
            guard let srcValue = object.removeValue(forKey: "src"), !srcValue.isNull else { continue }
            guard let src = srcValue.stringValue else {
                throw DecodingFailure(path: "\(path)[\(index)].src", problem: "expected a string URL, found \(kind(srcValue))")
            }
            guard let url = URL(string: src), let scheme = url.scheme?.lowercased() else {
                throw DecodingFailure(path: "\(path)[\(index)].src", problem: "not an absolute URL")
            }
            // Only http(s) sources come from a catalog: an RTMP source (legacy Video Cloud) is not playable
            // here, and a file: or other local URL in an answer from the network must never make the
            // player read the device's files.
            guard scheme == "http" || scheme == "https" else { continue }
            let type = object[Source.PropertyKey.type]?.stringValue.map(DeliveryType.init(rawValue:))
            let container = object[Source.PropertyKey.container]?.stringValue?.uppercased()
            let delivery = type ?? (container == "MP4" ? .mp4 : container == "M2TS" ? .hls : nil)
            result.append(Source(url: url, deliveryMethod: delivery, properties: object))
        }
        return result
    }

    static func cuePoints(_ value: JSONValue?, path: String) throws(DecodingFailure) -> [CuePoint] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let list) = value else { throw DecodingFailure(path: path, problem: "expected an array, found \(kind(value))") }
        var result: [CuePoint] = []
        for (index, entry) in list.enumerated() {
            guard case .object(let object) = entry else {
                throw DecodingFailure(path: "\(path)[\(index)]", problem: "expected an object, found \(kind(entry))")
            }
            guard let seconds = object[CuePoint.PropertyKey.time]?.doubleValue, seconds.isFinite, seconds >= 0 else {
                throw DecodingFailure(path: "\(path)[\(index)].time", problem: "expected a non-negative number of seconds")
            }
            let type = object[CuePoint.PropertyKey.type]?.stringValue ?? "AD"
            result.append(CuePoint(type: CuePointType(rawValue: type), position: .seconds(seconds), properties: object))
        }
        return result
    }

    static func videoError(in object: JSONObject) -> VideoError? {
        guard let code = object["error_code"]?.stringValue else { return nil }
        return VideoError(code: code, subcode: object["error_subcode"]?.stringValue, message: object["message"]?.stringValue)
    }

    enum Kind { case string, number, bool, array, object, null }

    private static func expect(_ object: JSONObject, _ key: String, path: String, allowed: Set<Kind>) throws(DecodingFailure) {
        guard let value = object[key] else { return }
        let actual = kindOf(value)
        guard allowed.contains(actual) else {
            throw DecodingFailure(path: "\(path).\(key)", problem: "expected \(allowed.map { "\($0)" }.sorted().joined(separator: " or ")), found \(actual)")
        }
    }

    private static func kindOf(_ value: JSONValue) -> Kind {
        switch value {
        case .null: return .null
        case .bool: return .bool
        case .int, .double: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    static func kind(_ value: JSONValue) -> String { "\(kindOf(value))" }
}

/// Values back to Playback API JSON (wire field names), for `cove fetch --json` and round trips.
/// `timesInSeconds` reports `duration` in seconds instead of the wire's milliseconds.
public enum PlaybackAPIEncoder {
    public static func json(_ video: Video, timesInSeconds: Bool = false) -> JSONValue {
        var object = video.properties
        object[Video.PropertyKey.sources] = .array(
            video.sources.map { source in
                var entry = source.properties
                entry["src"] = .string(source.url.absoluteString)
                if entry[Source.PropertyKey.type] == nil, let delivery = source.deliveryMethod, delivery != .mp4 {
                    entry[Source.PropertyKey.type] = .string(delivery.rawValue)
                }
                if timesInSeconds, let ms = entry[Source.PropertyKey.duration]?.doubleValue { entry[Source.PropertyKey.duration] = .double(ms / 1000) }
                return .object(entry)
            })
        object[Video.PropertyKey.cuePoints] = .array(
            video.cuePoints.map { cue in
                var entry = cue.properties
                entry[CuePoint.PropertyKey.type] = .string(cue.type.rawValue)
                // Keep the time as sent (0 stays an integer) unless the cue point was moved.
                if entry[CuePoint.PropertyKey.time]?.doubleValue != cue.position.seconds || !cue.position.isFinite {
                    entry[CuePoint.PropertyKey.time] = cue.position.isFinite ? .double(cue.position.seconds) : .string(cue.position.description)
                }
                return .object(entry)
            })
        if timesInSeconds, let ms = object[Video.PropertyKey.duration]?.doubleValue { object[Video.PropertyKey.duration] = .double(ms / 1000) }
        if let error = video.error {
            object["error_code"] = .string(error.code)
            if let subcode = error.subcode { object["error_subcode"] = .string(subcode) }
            if let message = error.message { object["message"] = .string(message) }
            object.removeValue(forKey: Video.PropertyKey.sources)
            object.removeValue(forKey: Video.PropertyKey.cuePoints)
        }
        if let bumper = video.bumper { object["bumper"] = json(bumper, timesInSeconds: timesInSeconds) }
        return .object(object)
    }

    public static func json(_ playlist: Playlist, timesInSeconds: Bool = false) -> JSONValue {
        var object = playlist.properties
        object["videos"] = .array(playlist.videos.map { json($0, timesInSeconds: timesInSeconds) })
        return .object(object)
    }
}
