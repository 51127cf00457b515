import CoveCore
import CoveTesting
import Foundation
import Testing

@testable import CoveMPRIS

/// Finding the session bus, and the typed errors when there is none: no bus is started here.
@Suite("MPRIS session bus address")
struct BusAddressTests {
    @Test func theEnvironmentsAddressWinsThenTheRuntimeDirectorysSocket() throws {
        let env = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/a", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(try SessionBusAddress.resolve(explicit: nil, environment: env, socketExists: { _ in true }) == "unix:path=/tmp/a")
        #expect(try SessionBusAddress.resolve(explicit: "unix:path=/x", environment: env, socketExists: { _ in true }) == "unix:path=/x")
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000 x"]
        #expect(
            try SessionBusAddress.resolve(explicit: nil, environment: runtime, socketExists: { $0 == "/run/user/1000 x/bus" })
                == "unix:path=/run/user/1000%20x/bus")
    }

    @Test func noBusIsATypedErrorThatSaysWhatToDo() {
        do {
            _ = try SessionBusAddress.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], socketExists: { _ in false })
            Issue.record("resolved a bus that does not exist")
        } catch {
            #expect(error.code == .outputUnavailable)
            #expect(error.message.contains("DBUS_SESSION_BUS_ADDRESS") && error.message.contains("dbus-run-session"), "\(error.message)")
        }
    }

    @Test func aBusThatDoesNotAnswerIsATypedErrorNotACrash() {
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine())
        let address = "unix:path=/tmp/cove-no-bus-\(UUID().uuidString)"
        do {
            let service = try MediaPlayer2Service(controller: controller, busAddress: address)
            service.stop()
            Issue.record("started on a bus that does not exist")
        } catch {
            #expect(error.code == .outputUnavailable)
            #expect(error.message.contains("dbus-run-session") && error.message.contains(address), "\(error.message)")
            #expect(error.cause != nil)
        }
        for garbage in ["not an address", ""] {
            do {
                let service = try MediaPlayer2Service(controller: controller, busAddress: garbage)
                service.stop()
                Issue.record("started on \"\(garbage)\"")
            } catch {
                #expect(error.code == .outputUnavailable || error.code == .invalidArgument, "\(error)")
            }
        }
    }

    @Test func anUnusableSuffixIsAnInvalidArgument() {
        let controller = PlayerSDKManager.shared.makePlaybackController(engine: ScriptedEngine())
        for suffix in ["9cove", "co ve", "cove..x", ""] {
            do {
                let service = try MediaPlayer2Service(controller: controller, busNameSuffix: suffix, busAddress: "unix:path=/tmp/unused")
                service.stop()
                Issue.record("accepted the suffix \"\(suffix)\"")
            } catch {
                #expect(error.code == .invalidArgument, "\(suffix): \(error)")
            }
        }
    }
}
