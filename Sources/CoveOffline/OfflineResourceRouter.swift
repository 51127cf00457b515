import CoveCore
import Foundation
import Synchronization

/// Answers `cove-offline://TOKEN/PATH` requests from the store of whichever open manager holds TOKEN: the
/// offline playlists and media files (with `Range`), and AES-128 keys from the index. Every request checks
/// the download's licence first, so a copy stops playing the moment its licence runs out. Registered in
/// `LocalResources` from the first manager on.
final class OfflineResourceRouter: LocalResourceHandler {
    static let shared = OfflineResourceRouter()

    private struct Weak: @unchecked Sendable {
        weak var manager: OfflineVideoManager?
    }

    private let managers = Mutex<[ObjectIdentifier: Weak]>([:])

    func add(_ manager: OfflineVideoManager) {
        managers.withLock { $0[ObjectIdentifier(manager)] = Weak(manager: manager) }
        LocalResources.register(scheme: OfflineVideoManager.scheme, handler: self)
    }

    /// The scheme stays registered when the last manager goes: a copy played with no manager open gets the
    /// typed "open the store" answer, not a generic "not an http URL".
    func remove(_ manager: OfflineVideoManager) {
        managers.withLock { table in
            table[ObjectIdentifier(manager)] = nil
            table = table.filter { $0.value.manager != nil }
        }
    }

    private func manager(holding token: OfflineVideoToken) -> OfflineVideoManager? {
        let open = managers.withLock { $0.values.compactMap(\.manager) }
        return open.first { (try? $0.store.download(token)) != nil }
    }

    func respond(to request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let url = request.url
        guard let host = url.host, let token = OfflineVideoToken(validating: host) else {
            throw HTTPTransportError(.offlineContentMissing, url: url, detail: "the offline URL names no download token")
        }
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !path.isEmpty, !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            throw HTTPTransportError(.offlineContentMissing, url: url, detail: "the offline URL's path is not a file of the download")
        }
        guard let manager = manager(holding: token) else {
            throw HTTPTransportError(
                .offlineContentMissing, url: url,
                detail:
                    "no open offline video manager holds download \(token); open the store it was downloaded to (OfflineVideoManager(root:)) before playing it"
            )
        }
        return try manager.respond(token: token, path: path, request: request)
    }
}

extension OfflineVideoManager {
    /// One offline request: licence, then the key or the file.
    func respond(token: OfflineVideoToken, path: String, request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
        let url = request.url
        let row: DownloadRow
        do {
            guard let found = try store.download(token) else { throw OfflineError(.unknownToken, "") }
            row = found
        } catch {
            throw HTTPTransportError(
                .offlineContentMissing, url: url, detail: "download \(token) is not in the store at \(root.path) (deleted?); download the video again")
        }
        guard row.state == .completed else {
            throw HTTPTransportError(
                .offlineContentMissing, url: url, detail: "download \(token) is \(row.state), not complete; wait for it to finish or resume it")
        }
        let now = configuration.now()
        if let problem = row.licenseProblem(at: now) {
            throw HTTPTransportError(.offlineLicenseExpired, url: url, detail: problem.message)
        }
        if path == row.layout?.masterPath, row.firstPlayedAt == nil, row.playDuration != nil {
            try? store.notePlayed(token, at: now)
        }
        if path.hasPrefix("key/") || path.hasPrefix("license/") {
            guard let material = try? store.key(token, name: path) else {
                throw HTTPTransportError(
                    .offlineContentMissing, url: url,
                    detail: "the decryption key \(path) of download \(token) is not in the store; delete the download and download it again")
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: material, url: url)
        }
        let file = store.file(path, of: token)
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .mappedIfSafe)
        } catch {
            throw HTTPTransportError(
                .offlineContentMissing, url: url,
                detail:
                    "the file \(path) of download \(token) is missing from the store (\(OfflineStore.reason(error))); delete the download and download it again"
            )
        }
        var headers: HTTPHeaders = ["Content-Type": MediaContentType.forExtension((path as NSString).pathExtension) ?? "application/octet-stream"]
        if let range = request.headers["Range"], let span = Self.byteRange(range, size: data.count) {
            headers["Content-Range"] = "bytes \(span.lowerBound)-\(span.upperBound - 1)/\(data.count)"
            return HTTPResponse(status: 206, headers: headers, body: data.subdata(in: span), url: url)
        }
        headers["Content-Length"] = String(data.count)
        return HTTPResponse(status: 200, headers: headers, body: data, url: url)
    }

    /// `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; nil when unusable (the whole file is sent).
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        let value = header.trimmingCharacters(in: .whitespaces).lowercased()
        guard value.hasPrefix("bytes="), !value.contains(","), size > 0 else { return nil }
        let bounds = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return nil }
        if bounds[0].isEmpty {
            guard let suffix = Int(bounds[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let first = Int(bounds[0]), first < size else { return nil }
        let last = bounds[1].isEmpty ? size - 1 : min(Int(bounds[1]) ?? -1, size - 1)
        guard last >= first else { return nil }
        return first..<(last + 1)
    }
}
