import Foundation
import Hummingbird

/// One logged request.
public struct MediaRequest: Sendable, Hashable {
    public let method: String
    public let path: String
    public let query: String?
    public let range: String?
    /// Request headers, lower-cased names.
    public let headers: [String: String]
    public let startedAt: Date
    /// 0 when the connection was dropped before a status was sent.
    public internal(set) var status: Int = 0
    public internal(set) var bytesSent: Int = 0
    public internal(set) var finishedAt: Date?
    /// The response was cut off (outage, client went away).
    public internal(set) var aborted = false

    init(method: String, path: String, query: String?, range: String?, headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.range = range
        self.headers = headers
        self.startedAt = Date()
    }
}

/// A request as seen by a custom route.
public struct MediaServerRequest: Sendable {
    public let method: String
    public let path: String
    public let query: String?
    /// Lower-cased header names.
    public let headers: [String: String]
    /// The request body (up to 1 MiB).
    public var body: Data = Data()

    /// Query parameters, percent-decoded; the last value wins for repeated keys.
    public var queryItems: [String: String] {
        var items: [String: String] = [:]
        for item in URLComponents(string: "http://x/?" + (query ?? ""))?.queryItems ?? [] { items[item.name] = item.value ?? "" }
        return items
    }
}

/// A custom route's answer.
public struct MediaServerResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    public var headers: HTTPFields
    /// false sends the body chunked, without `Content-Length` (clients must cap what they read).
    public var announcesLength = true

    /// A redirect to `location` (absolute or relative).
    public static func redirect(to location: String, status: Int = 302) -> MediaServerResponse {
        MediaServerResponse(status: status, contentType: "text/plain", body: Data(), headers: [.location: location])
    }

    public init(status: Int, contentType: String = "application/json", body: Data, headers: HTTPFields = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// `data` answered as the server's own files are, for a route that guards or rewrites a file: the
    /// asked `range` (a `Range` header) as 206 with `Content-Range`, 416 past the end, else the whole.
    public static func file(_ data: Data, contentType: String, range: String?) -> MediaServerResponse {
        guard let range else { return MediaServerResponse(status: 200, contentType: contentType, body: data, headers: [.acceptRanges: "bytes"]) }
        guard let span = MediaServer.byteRange(range, size: data.count) else {
            return MediaServerResponse(status: 416, contentType: "text/plain", body: Data(), headers: [.contentRange: "bytes */\(data.count)"])
        }
        return MediaServerResponse(
            status: 206, contentType: contentType, body: data.subdata(in: span),
            headers: [.contentRange: "bytes \(span.lowerBound)-\(span.upperBound - 1)/\(data.count)", .acceptRanges: "bytes"])
    }
}
