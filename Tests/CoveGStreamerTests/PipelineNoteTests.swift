import CCoveGst
import Testing

@testable import CoveGStreamerEngine

/// The pipeline's notes to its bus thread: typed values in, the same values out, in the bus's order.
@Suite("Pipeline notes")
struct PipelineNoteTests {
    @Test func notesArriveTypedAndInOrderAndOnlyOnce() throws {
        try GStreamerRuntime.ensureInitialized()
        let pipeline = try #require(cove_element_make("pipeline", "note-test"))
        defer { gst_object_unref(pipeline) }
        let bus = try #require(gst_element_get_bus(pipeline))
        defer { gst_object_unref(bus) }
        let notes = PipelineNotes()
        let sent: [PipelineNote] = [
            .firstBuffer(.shownAtPreroll, wallTime: 1_800_000_000.25), .videoSize(width: 1280, height: 720), .seekFailed(id: 7), .textCuesPending, .stop,
        ]
        for note in sent { notes.post(note, on: pipeline) }
        // Someone else's application message with the same two fields is not a note.
        cove_post_application_values(pipeline, "someone-else", 1, 0)
        #expect(notes.pendingCount == sent.count)

        var received: [PipelineNote] = []
        var others = 0
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            if let note = notes.take(message) { received.append(note) } else { others += 1 }
            // Taking a note empties its slot: a message handled twice yields nothing the second time.
            #expect(notes.take(message) == nil)
        }
        #expect(received == sent)
        #expect(others == 1)
        #expect(notes.pendingCount == 0)
    }
}
