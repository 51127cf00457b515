import CoveCore
import CoveStreaming
import Foundation
import GRDB

/// One download's row in the index.
struct DownloadRow: Sendable, Hashable {
    let token: OfflineVideoToken
    var state: OfflineDownloadState
    let displayName: String
    let videoID: String?
    let sourceURL: String
    let videoJSON: String
    let parametersJSON: String
    let layoutJSON: String
    let requestedAt: Date
    var startedAt: Date?
    var endedAt: Date?
    var error: OfflineError?
    var licenseRequestedAt: Date
    var rentalExpiresAt: Date?
    var playDuration: Double?
    var firstPlayedAt: Date?
    var licenseInvalidated: Bool

    init(row: Row) {
        token = OfflineVideoToken(rawValue: row["token"])
        state = OfflineDownloadState(rawValue: row["state"]) ?? .failed
        displayName = row["display_name"]
        videoID = row["video_id"]
        sourceURL = row["source_url"]
        videoJSON = row["video_json"]
        parametersJSON = row["parameters_json"]
        layoutJSON = row["offline_json"]
        requestedAt = Date(timeIntervalSince1970: row["requested_at"])
        startedAt = (row["started_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        endedAt = (row["ended_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        let code: Int? = row["error_code"]
        let message: String? = row["error_message"]
        error = code.map { OfflineError(OfflineError.Code.named($0), message ?? "") }
        licenseRequestedAt = Date(timeIntervalSince1970: row["license_requested_at"])
        rentalExpiresAt = (row["rental_expires_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        playDuration = row["play_duration"]
        firstPlayedAt = (row["first_played_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        licenseInvalidated = (row["license_invalidated"] as Int? ?? 0) != 0
    }

    var layout: OfflineLayout? {
        try? JSONDecoder().decode(OfflineLayout.self, from: Data(layoutJSON.utf8))
    }

    var parameters: OfflineDownloadParameters? {
        try? JSONDecoder().decode(OfflineDownloadParameters.self, from: Data(parametersJSON.utf8))
    }

    /// When the licence stops the download from playing: the rental's end, or the play duration after the
    /// first play, whichever comes first; nil when neither applies (yet).
    var licenseExpiration: Date? {
        let play = firstPlayedAt.flatMap { first in playDuration.map { first.addingTimeInterval($0) } }
        switch (rentalExpiresAt, play) {
        case (let rental?, let play?): return min(rental, play)
        case (let rental?, nil): return rental
        case (nil, let play?): return play
        case (nil, nil): return nil
        }
    }

    /// Why the licence does not allow playing at `now`, if it does not.
    func licenseProblem(at now: Date) -> OfflineError? {
        if licenseInvalidated {
            return OfflineError(.invalidLicense, "The licence of download \(token) was invalidated; renew it (online) to play it again")
        }
        if let expiration = licenseExpiration, now >= expiration {
            return OfflineError(.expiredLicense, "The licence of download \(token) expired at \(Self.format(expiration)); renew it (online) to play it again")
        }
        return nil
    }

    static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

/// One file of a download, as the index knows it.
struct FileRow: Sendable, Hashable {
    let path: String
    let ordinal: Int
    let url: URL
    let byteRange: ByteSpan?
    let kind: StreamingRequestKind
    let estimatedBytes: Int64
    /// The whole resource's length as the server announced it (known once a first attempt started).
    let expectedLength: Int?
    /// The version the announced length belongs to (`ETag` or `Last-Modified`), sent back with `If-Range`.
    let validator: String?
    let done: Bool
    let length: Int64?
    let sha256: String?

    init(row: Row) {
        path = row["path"]
        ordinal = row["ordinal"]
        url = URL(string: row["url"]) ?? URL(fileURLWithPath: "/")
        let offset: Int? = row["range_offset"]
        let length: Int? = row["range_length"]
        byteRange = offset.flatMap { o in length.map { ByteSpan(offset: o, length: $0) } }
        kind = StreamingRequestKind(rawValue: row["kind"]) ?? .segment
        estimatedBytes = row["estimated_bytes"]
        expectedLength = row["expected_length"]
        validator = row["validator"]
        done = (row["done"] as Int) != 0
        self.length = row["length"]
        sha256 = row["sha256"]
    }
}

/// Byte totals of one download, from the index.
struct DownloadTotals: Sendable, Hashable {
    var doneBytes: Int64 = 0
    var pendingEstimate: Int64 = 0
    var filesDone = 0
    var fileCount = 0
}

extension OfflineError.Code {
    static let all: [OfflineError.Code] = [
        .invalidParameter, .unsupported, .downloadFailure, .expiredLicense, .invalidLicense, .notDownloadable, .unknownToken, .invalidState,
        .storageLimitReached, .storageFailed, .storeInUse, .contentMissing,
    ]

    static func named(_ rawValue: Int) -> OfflineError.Code {
        all.first { $0.rawValue == rawValue } ?? .downloadFailure
    }
}

extension OfflineStore {
    func fail(_ what: String, _ error: any Error) -> OfflineError {
        OfflineError(.storageFailed, "The offline store's index could not \(what): \(Self.reason(error))")
    }

    /// One write transaction; a failure is `storageFailed` saying what could not be done.
    @discardableResult
    func transaction<T>(_ what: String, _ body: (Database) throws -> T) throws(OfflineError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw fail(what, error)
        }
    }

    /// Writes the plan's documents, then records the download, its files and keys in one transaction.
    func insert(_ row: NewDownload, plan: DownloadPlan) throws(OfflineError) {
        let folder = self.folder(of: row.token)
        for (path, contents) in plan.documents {
            let url = folder.appending(path: path, directoryHint: .notDirectory)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url, options: .atomic)
            } catch {
                throw OfflineError(.storageFailed, "The offline playlist \(path) could not be written in \(folder.path): \(Self.reason(error))")
            }
        }
        do {
            try database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO download (token, state, display_name, video_id, source_url, video_json, parameters_json, offline_json,
                            requested_at, license_requested_at, rental_expires_at, play_duration)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row.token.rawValue, OfflineDownloadState.requested.rawValue, row.displayName, row.videoID, row.sourceURL, row.videoJSON,
                        row.parametersJSON, row.layoutJSON, row.requestedAt.timeIntervalSince1970, row.requestedAt.timeIntervalSince1970,
                        row.terms.rentalDuration.map { row.requestedAt.timeIntervalSince1970 + $0 }, row.terms.playDuration,
                    ]
                )
                // One statement compiled for every file (a long title has thousands of segments).
                let insertFile = try db.cachedStatement(
                    sql: "INSERT INTO file (token, path, ordinal, url, range_offset, range_length, kind, estimated_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                for (ordinal, file) in plan.files.enumerated() {
                    try insertFile.execute(arguments: [
                        row.token.rawValue, file.path, ordinal, file.url.absoluteString, file.byteRange?.offset, file.byteRange?.length, file.kind.rawValue,
                        file.estimatedBytes,
                    ])
                }
                for key in plan.keys {
                    try db.execute(
                        sql: "INSERT INTO key (token, name, url) VALUES (?, ?, ?)", arguments: [row.token.rawValue, key.name, key.url.absoluteString])
                }
                for (name, licence) in plan.licenses {
                    try db.execute(
                        sql: "INSERT INTO key (token, name, url, material) VALUES (?, ?, ?, ?)",
                        arguments: [row.token.rawValue, name, "licence:" + name, licence])
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw fail("record the download", error)
        }
    }

    func download(_ token: OfflineVideoToken) throws(OfflineError) -> DownloadRow? {
        do {
            return try database.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM download WHERE token = ?", arguments: [token.rawValue]).map(DownloadRow.init)
            }
        } catch {
            throw fail("be read", error)
        }
    }

    func downloads() throws(OfflineError) -> [DownloadRow] {
        do {
            return try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM download ORDER BY requested_at, token").map(DownloadRow.init) }
        } catch {
            throw fail("be read", error)
        }
    }

    func files(of token: OfflineVideoToken, pendingOnly: Bool = false) throws(OfflineError) -> [FileRow] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM file WHERE token = ? \(pendingOnly ? "AND done = 0" : "") ORDER BY ordinal", arguments: [token.rawValue]
                ).map(FileRow.init)
            }
        } catch {
            throw fail("be read", error)
        }
    }

    func totals(of token: OfflineVideoToken) throws(OfflineError) -> DownloadTotals {
        do {
            return try database.read { db in
                var totals = DownloadTotals()
                if let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(CASE WHEN done = 1 THEN length ELSE 0 END), 0) AS done_bytes,
                               COALESCE(SUM(CASE WHEN done = 0 THEN estimated_bytes ELSE 0 END), 0) AS pending,
                               COALESCE(SUM(done), 0) AS files_done, COUNT(*) AS file_count
                        FROM file WHERE token = ?
                        """,
                    arguments: [token.rawValue]
                ) {
                    totals.doneBytes = row["done_bytes"]
                    totals.pendingEstimate = row["pending"]
                    totals.filesDone = row["files_done"]
                    totals.fileCount = row["file_count"]
                }
                return totals
            }
        } catch {
            throw fail("be read", error)
        }
    }

    /// Bytes of every finished file in the store.
    func usedBytes() throws(OfflineError) -> Int64 {
        do {
            return try database.read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(length), 0) FROM file WHERE done = 1") ?? 0 }
        } catch {
            throw fail("be read", error)
        }
    }

    /// Bytes still expected for every unfinished download (their pending files' estimates).
    func reservedBytes(excluding token: OfflineVideoToken? = nil) throws(OfflineError) -> Int64 {
        do {
            return try database.read { db in
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(f.estimated_bytes), 0) FROM file f JOIN download d ON d.token = f.token
                        WHERE f.done = 0 AND d.state IN (0, 1, 2, 5) AND d.token != ?
                        """,
                    arguments: [token?.rawValue ?? ""]
                ) ?? 0
            }
        } catch {
            throw fail("be read", error)
        }
    }

    /// Marks a verified file done (it is already at its final name).
    func markDone(_ token: OfflineVideoToken, path: String, length: Int, sha256: String) throws(OfflineError) {
        try transaction("record a finished file") { db in
            // Cached: run once per stored file.
            try db.cachedStatement(sql: "UPDATE file SET done = 1, length = ?, sha256 = ? WHERE token = ? AND path = ?")
                .execute(arguments: [length, sha256, token.rawValue, path])
        }
    }

    /// Keeps a file's announced length (a resume then knows when its part is already whole).
    func setExpectedLength(_ token: OfflineVideoToken, path: String, length: Int, validator: String?) throws(OfflineError) {
        try transaction("record a file's length") { db in
            try db.cachedStatement(sql: "UPDATE file SET expected_length = ?, validator = ? WHERE token = ? AND path = ?")
                .execute(arguments: [length, validator, token.rawValue, path])
        }
    }

    /// Moves the download to `state` only from one of `from`; false when it was in another state by then.
    func transition(_ token: OfflineVideoToken, to state: OfflineDownloadState, from: [OfflineDownloadState]) throws(OfflineError) -> Bool {
        do {
            return try database.write { db in
                let allowed = from.map { String($0.rawValue) }.joined(separator: ",")
                try db.execute(
                    sql: "UPDATE download SET state = ?, error_code = NULL, error_message = NULL WHERE token = ? AND state IN (\(allowed))",
                    arguments: [state.rawValue, token.rawValue])
                return db.changesCount > 0
            }
        } catch {
            throw fail("record the download's state", error)
        }
    }

    func setState(
        _ token: OfflineVideoToken, _ state: OfflineDownloadState, error: OfflineError? = nil, started: Date? = nil, ended: Date? = nil
    ) throws(OfflineError) {
        try transaction("record the download's state") { db in
            try db.execute(
                sql: """
                    UPDATE download SET state = ?, error_code = ?, error_message = ?, started_at = COALESCE(?, started_at),
                        ended_at = CASE WHEN ? = 4 THEN ? ELSE ended_at END WHERE token = ?
                    """,
                arguments: [
                    state.rawValue, error?.code.rawValue, error?.message, started?.timeIntervalSince1970, state.rawValue, ended?.timeIntervalSince1970,
                    token.rawValue,
                ]
            )
        }
    }

    /// Forgets which files were finished (the files themselves are removed by the caller).
    func resetFiles(_ token: OfflineVideoToken) throws(OfflineError) {
        try transaction("reset the download") { db in
            try db.execute(
                sql: "UPDATE file SET done = 0, length = NULL, sha256 = NULL, expected_length = NULL, validator = NULL WHERE token = ?",
                arguments: [token.rawValue])
            try db.execute(sql: "UPDATE key SET material = NULL WHERE token = ?", arguments: [token.rawValue])
        }
    }

    func remove(_ token: OfflineVideoToken) throws(OfflineError) {
        try transaction("forget the download") { db in
            try db.execute(sql: "DELETE FROM file WHERE token = ?", arguments: [token.rawValue])
            try db.execute(sql: "DELETE FROM key WHERE token = ?", arguments: [token.rawValue])
            try db.execute(sql: "DELETE FROM download WHERE token = ?", arguments: [token.rawValue])
        }
    }

    /// Keys still to fetch.
    func pendingKeys(_ token: OfflineVideoToken) throws(OfflineError) -> [PlannedKey] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT name, url FROM key WHERE token = ? AND material IS NULL ORDER BY name", arguments: [token.rawValue])
                    .compactMap { row in
                        URL(string: row["url"]).map { PlannedKey(name: row["name"], url: $0) }
                    }
            }
        } catch {
            throw fail("be read", error)
        }
    }

    func storeKey(_ token: OfflineVideoToken, name: String, material: Data) throws(OfflineError) {
        try transaction("store a key") { db in
            try db.execute(sql: "UPDATE key SET material = ? WHERE token = ? AND name = ?", arguments: [material, token.rawValue, name])
        }
    }

    func key(_ token: OfflineVideoToken, name: String) throws(OfflineError) -> Data? {
        do {
            return try database.read { db in
                try Row.fetchOne(db, sql: "SELECT material FROM key WHERE token = ? AND name = ?", arguments: [token.rawValue, name]).flatMap {
                    $0["material"] as Data?
                }
            }
        } catch {
            throw fail("be read", error)
        }
    }

    func updateLicense(_ token: OfflineVideoToken, requestedAt: Date, terms: OfflineLicenseTerms) throws(OfflineError) {
        try transaction("record the licence") { db in
            try db.execute(
                sql: """
                    UPDATE download SET license_requested_at = ?, rental_expires_at = ?, play_duration = ?, first_played_at = NULL,
                        license_invalidated = 0 WHERE token = ?
                    """,
                arguments: [
                    requestedAt.timeIntervalSince1970, terms.rentalDuration.map { requestedAt.timeIntervalSince1970 + $0 }, terms.playDuration, token.rawValue,
                ]
            )
        }
    }

    func invalidateLicense(_ token: OfflineVideoToken) throws(OfflineError) {
        do {
            try database.write { db in try db.execute(sql: "UPDATE download SET license_invalidated = 1 WHERE token = ?", arguments: [token.rawValue]) }
        } catch {
            throw fail("record the licence", error)
        }
    }

    /// Records the first offline play (the play-duration clock starts there); later plays change nothing.
    func notePlayed(_ token: OfflineVideoToken, at date: Date) throws(OfflineError) {
        try transaction("record the first play") { db in
            try db.execute(
                sql: "UPDATE download SET first_played_at = ? WHERE token = ? AND first_played_at IS NULL",
                arguments: [date.timeIntervalSince1970, token.rawValue])
        }
    }
}

/// A download about to be recorded.
struct NewDownload: Sendable {
    let token: OfflineVideoToken
    let displayName: String
    let videoID: String?
    let sourceURL: String
    let videoJSON: String
    let parametersJSON: String
    let layoutJSON: String
    let requestedAt: Date
    let terms: OfflineLicenseTerms
}
