import CCoveGst
import CGStreamer
import Foundation

/// What a `BusReader` asks of the pipeline it reads for. Called only on the bus thread.
protocol BusReaderClient: AnyObject, Sendable {
    /// Whether the pipeline has periodic work to do now (Cove's streaming, once prerolled, checks its
    /// buffer): the reader then waits at most 50 ms for a message rather than 250 ms, and also polls after
    /// every message.
    var pollsOften: Bool { get }
    /// Whether the pipeline is closed: asked whenever the bus was quiet for the wait, so a flushed bus
    /// (the pipeline set to NULL) cannot strand the thread.
    var isClosed: Bool { get }
    /// The periodic work: after a quiet wait, and after each message while `pollsOften`.
    func poll()
    /// Handles one message (borrowed: the reader releases it). False stops the reader.
    func handle(busMessage message: UnsafeMutablePointer<GstMessage>) -> Bool
}

/// The one thread that reads a pipeline's bus, in order, and hands each message to its client.
///
/// Its state is the thread and a semaphore that says the thread has let go of the bus, so the teardown
/// can wait for it. The thread holds its client strongly: the pipeline stays alive until the bus thread
/// has stopped (the client stops it by returning false, after the teardown's `stop` note).
struct BusReader: Sendable {
    /// Signalled once, when the thread has stopped reading and released the bus.
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the thread (`cove-gst-bus`) reading `element`'s bus for `client`.
    func start(reading element: ElementRef, for client: some BusReaderClient) {
        let thread = Thread { [self] in read(element, for: client) }
        thread.name = "cove-gst-bus"
        thread.start()
    }

    /// Waits (at most `timeout`) for the thread to stop.
    func waitUntilStopped(timeout: Duration) {
        _ = stopped.wait(timeout: .now() + .nanoseconds(Int(timeout.clampedNanoseconds)))
    }

    private func read(_ element: ElementRef, for client: some BusReaderClient) {
        guard let bus = gst_element_get_bus(element.pointer) else {
            stopped.signal()
            return
        }
        defer {
            gst_object_unref(UnsafeMutableRawPointer(bus))
            stopped.signal()
        }
        while true {
            // A finite wait so a flushed bus (pipeline set to NULL) cannot strand the thread.
            let pollsOften = client.pollsOften
            let timeout: GstClockTime = pollsOften ? 50_000_000 : 250_000_000
            guard let message = gst_bus_timed_pop(bus, timeout) else {
                if client.isClosed { return }
                client.poll()
                continue
            }
            defer { gst_message_unref(message) }
            if client.handle(busMessage: message) == false { return }
            // Also after messages, so a steady stream of them (QoS on a loaded machine) cannot starve it.
            if pollsOften { client.poll() }
        }
    }
}
