import ArgumentParser
import CoveCore
import CoveOffline
import CovePlayerControls
import Foundation

/// `cove downloads`: list the store's downloads; `pause|resume|cancel|delete|renew|invalidate|verify TOKEN`.
struct DownloadsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads",
        abstract: "List offline downloads, or pause, resume, cancel, delete, renew, invalidate or verify one.",
        subcommands: [List.self, Pause.self, Resume.self, Cancel.self, Delete.self, Renew.self, Invalidate.self, Verify.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every download with its state, progress and size.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            let manager = try store.openManager()
            defer { Task { await manager.close() } }
            let statuses: [OfflineVideoStatus]
            do throws(OfflineError) {
                statuses = try manager.offlineVideoStatus()
            } catch {
                Terminal.error("cove downloads: \(error)")
                throw ExitCode(1)
            }
            if json {
                Terminal.line(JSONValue.array(statuses.map(Self.json)).serialized(pretty: true))
                return
            }
            if statuses.isEmpty {
                Terminal.line("No downloads in \(manager.root.path).")
                return
            }
            Terminal.line(pad("TOKEN", 36) + "  " + pad("STATE", 11) + "  " + pad("DONE", 5) + "  " + pad("SIZE", 10) + "  NAME")
            for status in statuses {
                let size = String(format: "%.1f MB", Double(status.state == .completed ? status.bytesDownloaded : status.estimatedTotalBytes) / 1_000_000)
                var line =
                    pad(status.token.rawValue, 36) + "  " + pad(status.state.description, 11) + "  " + pad(String(format: "%.0f%%", status.downloadPercent), 5)
                line += "  " + pad(size, 10) + "  " + status.displayName
                if let expiration = status.licenseExpiration { line += "  (licence until \(ISO8601DateFormatter().string(from: expiration)))" }
                Terminal.line(line)
                if let error = status.error { Terminal.line("    \(error)") }
            }
        }

        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }

        static func json(_ status: OfflineVideoStatus) -> JSONValue {
            var object: JSONObject = [
                "token": .string(status.token.rawValue), "state": .string(status.state.description), "name": .string(status.displayName),
                "bytes": .int(status.bytesDownloaded), "estimated_bytes": .int(status.estimatedTotalBytes), "files": .int(Int64(status.fileCount)),
                "files_completed": .int(Int64(status.filesCompleted)), "percent": .double(status.downloadPercent), "source": .string(status.sourceURL),
            ]
            if let id = status.videoID { object["video_id"] = .string(id) }
            if let error = status.error {
                object["error"] = .object(["code": .int(Int64(error.code.rawValue)), "name": .string(error.code.name), "message": .string(error.message)])
            }
            if let expiration = status.licenseExpiration { object["license_expiration"] = .double(expiration.timeIntervalSince1970) }
            return .object(object)
        }
    }

    /// Parses the TOKEN argument.
    static func token(_ text: String) throws -> OfflineVideoToken {
        guard let token = OfflineVideoToken(validating: text) else {
            throw ValidationError("'\(text)' is not a download token (letters, digits and '-'); list them with `cove downloads`")
        }
        return token
    }

    /// Runs `action` on an open manager, printing a typed error and exiting 1 on failure.
    static func withManager(_ store: StoreOptions, _ action: (OfflineVideoManager) async throws(OfflineError) -> Void) async throws {
        let manager = try store.openManager()
        do throws(OfflineError) {
            try await action(manager)
        } catch {
            Terminal.error("cove downloads: \(error)")
            await manager.close()
            throw ExitCode(1)
        }
        await manager.close()
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause", abstract: "Mark a download paused (a running `cove download` pauses with Ctrl-C).")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in
                try await manager.pauseVideoDownload(token)
                Terminal.line("Paused \(token)")
            }
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume", abstract: "Carry on a paused, failed or interrupted download here, with a progress bar.")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            let manager = try store.openManager()
            let events = manager.events()
            do throws(OfflineError) {
                try manager.resumeVideoDownload(token)
            } catch {
                Terminal.error("cove downloads: \(error)")
                await manager.close()
                throw ExitCode(1)
            }
            try await DownloadProgress.followToTheEnd(token, manager: manager, events: events)
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Stop a download and remove its files (it stays listed as cancelled).")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in
                try await manager.cancelVideoDownload(token)
                Terminal.line("Cancelled \(token)")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Remove a download, its files and keys.")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in
                try await manager.deleteOfflineVideo(token)
                Terminal.line("Deleted \(token)")
            }
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "renew", abstract: "Start a download's licence again from now.")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        @Option(help: "Rental seconds from now (default: no expiry).")
        var rental: Double?
        @Option(name: .customLong("play-duration"), help: "Seconds from the next first play.")
        var playDuration: Double?
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in
                try manager.renewLicense(token, terms: OfflineLicenseTerms(rentalDuration: rental, playDuration: playDuration))
                Terminal.line("Renewed \(token)")
            }
        }
    }

    struct Invalidate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "invalidate", abstract: "Stop a download from playing until it is renewed.")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in
                try manager.invalidateLicense(token)
                Terminal.line("Invalidated \(token)")
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Check every stored file against the SHA-256 recorded when it was downloaded.")
        @Argument var token: String
        @OptionGroup var store: StoreOptions
        func run() async throws {
            let token = try DownloadsCommand.token(self.token)
            var bad: [String] = []
            try await DownloadsCommand.withManager(store) { manager throws(OfflineError) in bad = try manager.verify(token) }
            if bad.isEmpty {
                Terminal.line("\(token): every file matches its recorded SHA-256")
            } else {
                Terminal.error(
                    "\(token): \(bad.count) file(s) missing or altered: \(bad.prefix(10).joined(separator: ", ")); delete the download and download it again")
                throw ExitCode(1)
            }
        }
    }
}
