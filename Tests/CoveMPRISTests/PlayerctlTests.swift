import CoveCore
import CoveMPRIS
import CoveTesting
import Foundation
import Testing

extension MPRISBusTests {
    /// `playerctl` drives a controller playing real media on the GStreamer engine, through the service
    /// on a private bus, and reads what it plays: what a desktop's media keys and "now playing" do.
    @Suite("playerctl drives the real engine")
    struct PlayerctlTests {
        @Test func playPausePausesAPlayingControllerAndPlaysItAgain() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "clip-1", name: "First clip")])
                try await recorder.waitFor(.play)
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Playing" }

                let (changes, monitor) = try await h.bus.watch(
                    "type='signal',path='/org/mpris/MediaPlayer2',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
                defer { monitor.kill() }
                let beforePause = await recorder.cursor()
                let pause = try await h.bus.playerctl("-p", "cove", "play-pause")
                #expect(pause.status == 0, "\(pause.errorOutput)")
                try await recorder.waitFor(.pause, from: beforePause, timeout: .seconds(10))
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Paused" }
                // Clients that follow the player (desktop applets) hear of it without asking.
                let signalled = await h.bus.first(changes) { $0.contains("\"PlaybackStatus\"") && $0.contains("\"Paused\"") }
                #expect(signalled != nil, "PropertiesChanged(PlaybackStatus: Paused) within 10 s")

                let beforePlay = await recorder.cursor()
                let play = try await h.bus.playerctl("-p", "cove", "play-pause")
                #expect(play.status == 0, "\(play.errorOutput)")
                try await recorder.waitFor(.play, from: beforePlay, timeout: .seconds(10))
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Playing" }
            }
            controller.shutdown()
        }

        @Test func positionSeeksTheControllerAndPositionReadsItBack() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "clip-1", name: "First clip")])
                try await recorder.waitFor(.play)
                // SetPosition needs the track ID from Metadata and CanSeek.
                // (playerctl prints object paths quoted.)
                try await h.bus.poll(["-p", "cove", "metadata", "mpris:trackid"]) { $0.hasPrefix("'/org/cove/Video/clip_2d1/") }

                let (seekedSignals, monitor) = try await h.bus.watch("type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
                defer { monitor.kill() }
                let beforeSeek = await recorder.cursor()
                let seek = try await h.bus.playerctl("-p", "cove", "position", "30")
                #expect(seek.status == 0, "\(seek.errorOutput)")
                // Played from 0 in real time, the clip cannot reach 29 s within the wait on its own.
                try await recorder.waitFor(from: beforeSeek, timeout: .seconds(10)) { event in
                    if case .progress(_, let time) = event { time >= .seconds(29) && time <= .seconds(31) } else { false }
                }
                // Clients learn of the jump from the Seeked signal.
                let seeked = await h.bus.first(seekedSignals) { $0.contains("int64 ") }
                let signalled = try #require(
                    seeked.flatMap { $0.split(separator: " ").last.flatMap { Int64($0) } }, "a Seeked signal within 10 s: \(seeked ?? "none")")
                #expect(signalled >= 29_000_000 && signalled <= 31_000_000, "Seeked(\(signalled))")
                let read = try await h.bus.poll(["-p", "cove", "position"]) { Double($0) != nil }
                let position = try #require(Double(read))
                #expect(position >= 29 && position <= 33, "Position after the seek: \(position)")
            }
            controller.shutdown()
        }

        @Test func stopPausesAndRewindsAndPreviousRestarts() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "clip-1", name: "First clip")])
                try await recorder.waitFor(.play)
                #expect(await controller.seekAndWait(to: .seconds(20)))
                try await h.bus.poll(["-p", "cove", "position"]) { (Double($0) ?? 0) >= 19 }

                let beforePrevious = await recorder.cursor()
                #expect(try await h.bus.playerctl("-p", "cove", "previous").status == 0)
                try await recorder.waitFor(from: beforePrevious, timeout: .seconds(10)) { event in
                    if case .progress(_, let time) = event { time < .seconds(2) } else { false }
                }

                #expect(await controller.seekAndWait(to: .seconds(20)))
                let beforeStop = await recorder.cursor()
                #expect(try await h.bus.playerctl("-p", "cove", "stop").status == 0)
                try await recorder.waitFor(.pause, from: beforeStop, timeout: .seconds(10))
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Stopped" }
                // The controller does not always report the playhead after a seek while paused, so the
                // engine's own position is the witness of the rewind, and Position must agree with it.
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline, (controller.currentSession?.player?.position ?? .after) >= .seconds(1) {
                    try await Task.sleep(for: .milliseconds(50))
                }
                let enginePosition = try #require(controller.currentSession?.player?.position)
                #expect(enginePosition < .seconds(1), "the engine rewound: \(enginePosition)")
                try await h.bus.poll(["-p", "cove", "position"]) { (Double($0) ?? 99) < 1 }

                let beforePlay = await recorder.cursor()
                #expect(try await h.bus.playerctl("-p", "cove", "play").status == 0)
                try await recorder.waitFor(.play, from: beforePlay, timeout: .seconds(10))
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Playing" }
            }
            controller.shutdown()
        }

        @Test func nextAdvancesToTheSecondVideoOfTheQueue() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "first", name: "First"), h.video(.audioOnly, id: "second", name: "Second")])
                try await recorder.waitFor(.play)
                try await h.bus.poll(["-p", "cove", "metadata", "cove:videoId"]) { $0 == "first" }

                let beforeNext = await recorder.cursor()
                let next = try await h.bus.playerctl("-p", "cove", "next")
                #expect(next.status == 0, "\(next.errorOutput)")
                try await recorder.waitFor(from: beforeNext, timeout: .seconds(10)) { event in
                    if case .sessionAdvanced(let session) = event { session.video.id == "second" } else { false }
                }
                try await recorder.waitFor(.play, from: beforeNext, timeout: .seconds(10))
                try await h.bus.poll(["-p", "cove", "metadata", "cove:videoId"]) { $0 == "second" }
                #expect(try await h.bus.playerctl("-p", "cove", "metadata", "xesam:title").output.trimmingCharacters(in: .whitespacesAndNewlines) == "Second")
                try await h.bus.poll(["-p", "cove", "status"]) { $0 == "Playing" }
            }
            controller.shutdown()
        }

        @Test func metadataCarriesTitleLengthVideoIDPosterAndTrackID() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "6140448705001", name: "Sintel trailer")])
                try await recorder.waitFor { if case .durationChanged(_, .some) = $0 { true } else { false } }
                let session = try #require(controller.currentSession)

                // The length arrives with durationChanged; the fixture is 40 s long.
                let lengthText = try await h.bus.poll(["-p", "cove", "metadata", "mpris:length"]) { Int64($0) != nil }
                let length = try #require(Int64(lengthText))
                #expect(abs(length - 40_000_000) <= 500_000, "mpris:length \(length)")
                let all = try await h.bus.playerctl("-p", "cove", "metadata").output
                #expect(all.contains("xesam:title") && all.contains("Sintel trailer"), "\(all)")
                #expect(all.contains("cove:videoId") && all.contains("6140448705001"), "\(all)")
                let title = try await h.bus.playerctl("-p", "cove", "metadata", "--format", "{{title}}|{{mpris:artUrl}}|{{mpris:trackid}}").output
                #expect(
                    title.trimmingCharacters(in: .whitespacesAndNewlines)
                        == "Sintel trailer|https://example.com/6140448705001.jpg|'/org/cove/Video/6140448705001/\(session.id)'")
                let url = try await h.bus.playerctl("-p", "cove", "metadata", "xesam:url").output
                #expect(url.contains("/ladder/master.m3u8"), "\(url)")
                let identity = try await ProcessRunner.run(
                    "dbus-send",
                    [
                        "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cove", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
                        "string:org.mpris.MediaPlayer2", "string:Identity",
                    ], environment: h.bus.environment)
                #expect(identity.output.contains("\"Cove\""), "\(identity.output) \(identity.errorOutput)")
            }
            controller.shutdown()
        }

        @Test func volumeSetsTheControllersVolume() async throws {
            let h = try await MPRISHarness.start()
            defer { Task { await h.stop() } }
            let controller = h.controller()
            let recorder = EventRecorder(controller)
            let mpris = try h.service(controller)
            defer { mpris.stop() }
            try await h.diagnosingFailure {
                controller.isAutoPlay = true
                controller.setVideos([h.video(.ladder, id: "clip-1", name: "First clip")])
                try await recorder.waitFor(.play)
                try await h.bus.poll(["-p", "cove", "volume"]) { Double($0) == 1 }

                let before = await recorder.cursor()
                let set = try await h.bus.playerctl("-p", "cove", "volume", "0.5")
                #expect(set.status == 0, "\(set.errorOutput)")
                try await recorder.waitFor(from: before, timeout: .seconds(10)) { event in
                    if case .volumeChanged(_, let volume) = event { volume.level == 0.5 } else { false }
                }
                #expect(controller.volume == 0.5)
                try await h.bus.poll(["-p", "cove", "volume"]) { Double($0) == 0.5 }
            }
            controller.shutdown()
        }
    }
}
