import CoveCore
import CovePlaybackService
import Foundation

/// The seed's offline video property keys (`BCOVOfflineVideo.*PropertyKey`), set on a downloaded video.
public enum OfflineVideoPropertyKey {
    public static let token = "offline_video_token"
    public static let licenseRequestTime = "offline_download_license_request_time"
    public static let licenseAbsoluteExpirationTime = "offline_download_license_absolute_expiration_time"
    public static let downloadStartTime = "offline_download_start_time"
    public static let downloadEndTime = "offline_download_end_time"
    public static let onlineSourceURL = "online_source"
    public static let thumbnailName = "offline_thumbnail_name"
    public static let thumbnailFilePath = "offline_thumbnail"
    public static let posterName = "offline_poster_name"
    public static let posterFilePath = "offline_poster"
    public static let relativeFilePath = "offline_relative_video_path"
    public static let filePath = "offline_video_path"
    public static let mediaType = "media_type"
}

extension OfflineVideoManager {
    /// The `Video` that plays the download from the store (the seed's `videoObject(fromOfflineVideoToken:)`):
    /// the catalog video's fields and cue points, one HLS source `cove-offline://TOKEN/master.m3u8` (or, for a
    /// downloaded MP4 rendition, one MP4 source `cove-offline://TOKEN/media/video.mp4`), the
    /// stored captions and thumbnail track as its text tracks, the poster and thumbnail from the store, and
    /// the seed's offline property keys. Fails when the download is not complete, its licence has run out,
    /// or a stored file is missing (then delete it and download again).
    public func videoObject(fromOfflineVideoToken token: OfflineVideoToken) throws(OfflineError) -> Video {
        let row = try existing(token)
        guard row.state == .completed else {
            let percent = (try? status(of: token).downloadPercent).map { String(format: " (%.0f %%)", $0) } ?? ""
            throw OfflineError(.invalidState, "Download \(token) is \(row.state)\(percent), not complete; only a completed download plays offline")
        }
        if let problem = row.licenseProblem(at: configuration.now()) { throw problem }
        guard let layout = row.layout else {
            throw OfflineError(.contentMissing, "The index entry of download \(token) is damaged; delete the download and download it again")
        }
        try checkFilesPresent(token, layout: layout)
        return try makeVideo(row, layout: layout)
    }

    /// Every finished file and written playlist of the download is on disk with its recorded length.
    private func checkFilesPresent(_ token: OfflineVideoToken, layout: OfflineLayout) throws(OfflineError) {
        let fm = FileManager.default
        var missing: [String] = []
        for file in try store.files(of: token) {
            let url = store.file(file.path, of: token)
            let size = (try? fm.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
            if !file.done || size != file.length { missing.append(file.path) }
        }
        let documents = [layout.masterPath, layout.thumbnailTrackPath].compactMap { $0 }
        for path in documents where !fm.fileExists(atPath: store.file(path, of: token).path) { missing.append(path) }
        guard missing.isEmpty else {
            let named = missing.prefix(3).joined(separator: ", ") + (missing.count > 3 ? " and \(missing.count - 3) more" : "")
            throw OfflineError(
                .contentMissing, "Download \(token) is missing \(named) in \(store.folder(of: token).path); delete the download and download it again")
        }
    }

    /// The download's files as the index records them: where each came from and, once finished, its length
    /// and SHA-256 — for diagnostics and audits (`cove downloads verify`).
    public func storedFiles(of token: OfflineVideoToken) throws(OfflineError) -> [StoredFile] {
        _ = try existing(token)
        return try store.files(of: token).map { file in
            StoredFile(
                path: file.path, localURL: store.file(file.path, of: token), origin: Redaction.redact(url: file.url),
                byteRange: file.byteRange.map { ($0.offset, $0.length) }, isComplete: file.done, length: file.length, sha256: file.sha256
            )
        }
    }

    /// Checks every stored file against the SHA-256 recorded when it was downloaded; returns the paths that
    /// differ or are gone (empty: the copy is intact).
    public func verify(_ token: OfflineVideoToken) throws(OfflineError) -> [String] {
        _ = try existing(token)
        var bad: [String] = []
        for file in try store.files(of: token) where file.done {
            let digest = try? PartFile.sha256(of: store.file(file.path, of: token))
            if digest?.sha256 != file.sha256 || digest.map({ Int64($0.length) }) != file.length { bad.append(file.path) }
        }
        return bad
    }

    private func makeVideo(_ row: DownloadRow, layout: OfflineLayout) throws(OfflineError) -> Video {
        let original: Video
        do {
            original = try PlaybackAPIDecoder.video(from: try JSONValue.parse(Array(row.videoJSON.utf8)))
        } catch {
            throw OfflineError(
                .contentMissing, "The catalog fields of download \(row.token) could not be read back (\(error)); delete the download and download it again")
        }
        let base = "\(Self.scheme)://\(row.token.rawValue)/"
        func local(_ path: String) -> String { base + path }
        let folder = store.folder(of: row.token)
        var properties = original.properties
        var tracks: [JSONValue] = []
        for sidecar in layout.sidecars {
            var entry = sidecar.properties.flatMap { try? JSONValue.parse(Array($0.utf8)).objectValue } ?? [:]
            entry[TextTrack.PropertyKey.source] = .string(local(sidecar.path))
            entry[TextTrack.PropertyKey.kind] = .string(sidecar.kind)
            if let language = sidecar.language { entry[TextTrack.PropertyKey.language] = .string(language) }
            if let label = sidecar.label { entry[TextTrack.PropertyKey.label] = .string(label) }
            entry[TextTrack.PropertyKey.mimeType] = .string("text/vtt")
            entry[TextTrack.PropertyKey.isDefault] = .bool(sidecar.isDefault)
            tracks.append(.object(entry))
        }
        if let thumbnails = layout.thumbnailTrackPath {
            tracks.append(
                .object([
                    TextTrack.PropertyKey.source: .string(local(thumbnails)), TextTrack.PropertyKey.kind: "metadata",
                    TextTrack.PropertyKey.label: "thumbnails", TextTrack.PropertyKey.mimeType: "text/vtt",
                ]))
        }
        properties[Video.PropertyKey.textTracks] = .array(tracks)
        for key in [Video.PropertyKey.poster, Video.PropertyKey.posterSources, Video.PropertyKey.thumbnail, Video.PropertyKey.thumbnailSources] {
            properties.removeValue(forKey: key)
        }
        if let poster = layout.posterPath {
            properties[Video.PropertyKey.poster] = .string(local(poster))
            properties[OfflineVideoPropertyKey.posterFilePath] = .string(folder.appendingPathComponent(poster).path)
            properties[OfflineVideoPropertyKey.posterName] = .string((poster as NSString).lastPathComponent)
        }
        if let thumbnail = layout.thumbnailImagePath {
            properties[Video.PropertyKey.thumbnail] = .string(local(thumbnail))
            properties[OfflineVideoPropertyKey.thumbnailFilePath] = .string(folder.appendingPathComponent(thumbnail).path)
            properties[OfflineVideoPropertyKey.thumbnailName] = .string((thumbnail as NSString).lastPathComponent)
        }
        properties[OfflineVideoPropertyKey.token] = .string(row.token.rawValue)
        properties[OfflineVideoPropertyKey.licenseRequestTime] = .double(row.licenseRequestedAt.timeIntervalSince1970)
        if let expiration = row.licenseExpiration {
            properties[OfflineVideoPropertyKey.licenseAbsoluteExpirationTime] = .double(expiration.timeIntervalSince1970)
        }
        if let started = row.startedAt { properties[OfflineVideoPropertyKey.downloadStartTime] = .double(started.timeIntervalSince1970) }
        if let ended = row.endedAt { properties[OfflineVideoPropertyKey.downloadEndTime] = .double(ended.timeIntervalSince1970) }
        properties[OfflineVideoPropertyKey.onlineSourceURL] = .string(Redaction.redact(urlString: row.sourceURL))
        properties[OfflineVideoPropertyKey.relativeFilePath] = .string("\(OfflineStore.downloadsFolder)/\(row.token.rawValue)/\(layout.masterPath)")
        properties[OfflineVideoPropertyKey.filePath] = .string(folder.appendingPathComponent(layout.masterPath).path)
        // An MP4 copy is the rendition itself, read by byte ranges like the original; everything else was
        // laid out as HLS.
        let isMP4 = layout.originFormat == "mp4"
        properties[OfflineVideoPropertyKey.mediaType] = .string(isMP4 ? "mp4" : "hls")
        let delivery: DeliveryType = isMP4 ? .mp4 : .hls
        let source = Source(
            url: URL(string: local(layout.masterPath))!, deliveryMethod: isMP4 ? nil : .hls,
            properties: [Source.PropertyKey.type: .string(delivery.rawValue)])
        return Video(sources: [source], cuePoints: original.cuePoints, properties: properties)
    }
}

/// One file of a download (see `OfflineVideoManager.storedFiles(of:)`).
public struct StoredFile: Sendable, Hashable {
    /// Its path inside the download's folder.
    public let path: String
    public let localURL: URL
    /// The URL it was fetched from (redacted).
    public let origin: String
    /// The part of the origin it holds (a segment's byte range), nil for the whole resource.
    public let byteRange: (offset: Int, length: Int)?
    public let isComplete: Bool
    public let length: Int64?
    /// Lowercase hex, as computed from the bytes on disk when the file was finished.
    public let sha256: String?

    public static func == (lhs: StoredFile, rhs: StoredFile) -> Bool {
        lhs.path == rhs.path && lhs.origin == rhs.origin && lhs.isComplete == rhs.isComplete && lhs.length == rhs.length && lhs.sha256 == rhs.sha256
            && lhs.byteRange?.offset == rhs.byteRange?.offset && lhs.byteRange?.length == rhs.byteRange?.length
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(sha256)
    }
}
