import Testing

@testable import CoveCore

/// The remembered caption choice holds a session until the app chooses, asking for each target once.
@Suite("Caption preference hold")
struct CaptionPreferenceHoldTests {
    @Test func eachTargetIsAskedForOnceUntilItIsWorthAskingAgain() {
        var hold = CaptionPreferenceHold()
        #expect(hold.handle(.preferred(target: "fr", selected: "en")) == .select("fr"))
        #expect(hold.handle(.preferred(target: "fr", selected: "en")) == nil, "the engine has not confirmed it yet")
        #expect(hold.handle(.preferred(target: "de", selected: "en")) == .select("de"), "a new target is asked for")
        _ = hold.handle(.askAgain)
        #expect(hold.handle(.preferred(target: "de", selected: "en")) == .select("de"))
        #expect(hold.handle(.preferred(target: "en", selected: "en")) == nil, "already shown")
    }

    @Test func offIsATargetToo() {
        var hold = CaptionPreferenceHold()
        #expect(hold.handle(.preferred(target: nil, selected: "en")) == .select(nil))
        #expect(hold.requested == .some(nil))
        #expect(hold.handle(.preferred(target: nil, selected: "en")) == nil)
        #expect(hold.handle(.preferred(target: nil, selected: nil)) == nil, "no text shown already")
    }

    @Test func theAppsOwnChoiceEndsTheHold() {
        var hold = CaptionPreferenceHold()
        _ = hold.handle(.appChose)
        #expect(hold.appChose)
        #expect(hold.handle(.preferred(target: "fr", selected: "en")) == nil)
        _ = hold.handle(.askAgain)
        #expect(hold.handle(.preferred(target: "fr", selected: "en")) == nil, "for the rest of the session")
    }
}
