import CoveCore
import CoveMPRIS
import CoveTesting
import Foundation
import Synchronization
import Testing

extension MPRISBusTests {
    /// Names, Quit and stopping, on a private bus with controllers that play nothing (the names do not
    /// depend on playback, so the scripted engine stands in for GStreamer).
    @Suite("Bus names and lifetime")
    struct BusNameTests {
        private func controller() -> PlaybackController {
            PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine())
        }

        @Test func aSecondPlayerTakesAnInstanceNameAndTheFirstKeepsItsOwn() async throws {
            let bus = try await PrivateBus.start()
            defer { Task { await bus.stop() } }
            let first = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { first.stop() }
            #expect(first.busName == "org.mpris.MediaPlayer2.cove")
            let owner = try #require(try await bus.owner(of: first.busName))

            let second = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { second.stop() }
            let pid = ProcessInfo.processInfo.processIdentifier
            #expect(second.busName == "org.mpris.MediaPlayer2.cove.instance\(pid)")
            let third = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { third.stop() }
            #expect(third.busName == "org.mpris.MediaPlayer2.cove.instance\(pid)_2")

            #expect(try await bus.owner(of: first.busName) == owner, "the first player kept its name")
            let listed = try await bus.poll(["-l"]) { $0.split(separator: "\n").count == 3 }
            #expect(Set(listed.split(separator: "\n").map(String.init)) == ["cove", "cove.instance\(pid)", "cove.instance\(pid)_2"])

            // Stopping releases the name at once; the others keep theirs.
            first.stop()
            let names = try await bus.names()
            #expect(!names.contains("org.mpris.MediaPlayer2.cove"), "\(names)")
            #expect(names.contains("org.mpris.MediaPlayer2.cove.instance\(pid)"), "\(names)")
            second.stop()
            third.stop()
            let left = try await bus.names()
            #expect(left.filter { $0.hasPrefix("org.mpris.") }.isEmpty, "\(left)")

            // With the name free again, a new player gets the plain name.
            let again = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { again.stop() }
            #expect(again.busName == "org.mpris.MediaPlayer2.cove")
        }

        @Test func quitCallsOnQuitAndCanQuitSaysWhetherItIsSet() async throws {
            let bus = try await PrivateBus.start()
            defer { Task { await bus.stop() } }
            let service = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { service.stop() }
            let property = { (name: String) async throws -> String in
                try await ProcessRunner.run(
                    "dbus-send",
                    [
                        "--session", "--print-reply", "--dest=\(service.busName)", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
                        "string:org.mpris.MediaPlayer2", "string:\(name)",
                    ], environment: bus.environment
                ).output
            }
            #expect(try await property("CanQuit").contains("boolean false"))

            let (quits, quit) = AsyncStream.makeStream(of: Void.self)
            // Quit runs the hook on a task of its own, so a hook that stops the service cannot deadlock.
            service.onQuit = {
                service.stop()
                quit.yield()
                quit.finish()
            }
            #expect(try await property("CanQuit").contains("boolean true"))
            let call = try await ProcessRunner.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(service.busName)", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"],
                environment: bus.environment)
            #expect(call.status == 0, "\(call.errorOutput)")
            let called = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await _ in quits { return true }
                    return false
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return false
                }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
            #expect(called, "onQuit ran within 10 s")
            let names = try await bus.names()
            #expect(!names.contains(service.busName), "the hook stopped the service: \(names)")
        }

        @Test func anUnknownSchemeIsRefusedWithADBusError() async throws {
            let bus = try await PrivateBus.start()
            defer { Task { await bus.stop() } }
            let service = try MediaPlayer2Service(controller: controller(), busAddress: bus.address)
            defer { service.stop() }
            let call = try await ProcessRunner.run(
                "dbus-send",
                [
                    "--session", "--print-reply", "--dest=\(service.busName)", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.OpenUri",
                    "string:gopher://example.com/video",
                ], environment: bus.environment)
            #expect(call.status != 0)
            #expect(call.errorOutput.contains("org.freedesktop.DBus.Error.NotSupported"), "\(call.errorOutput)")
        }

        @Test func theBusGoingAwayLeavesTheServiceUsableAndStoppable() async throws {
            let bus = try await PrivateBus.start()
            let controller = controller()
            let service = try MediaPlayer2Service(controller: controller, busAddress: bus.address)
            await bus.stop()
            // Publishing into a closed connection (CanRaise changes) and stopping must neither crash nor hang.
            service.onRaise = {}
            controller.volume = 0.3
            await controller.settle()
            service.stop()
            service.stop()
        }
    }
}
