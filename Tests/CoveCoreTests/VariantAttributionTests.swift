import Testing

@testable import CoveCore

/// What a variant switch is put down to: the first variant, a low-variant seek, a cap, or the adaptation.
@Suite("Variant attribution")
struct VariantAttributionTests {
    static let low = Variant(bandwidth: 500_000, height: 360, url: "low.m3u8")
    static let mid = Variant(bandwidth: 1_500_000, height: 540, url: "mid.m3u8")
    static let high = Variant(bandwidth: 4_000_000, height: 1080, url: "high.m3u8")

    @Test func theFirstVariantIsInitialAndLaterOnesAdaptive() {
        var attribution = VariantAttribution()
        attribution.handle(.capChanged)
        #expect(attribution.switched(from: nil, to: Self.low, cap: 1_000_000) == .initial)
        #expect(!attribution.capChanged, "used up by the first switch too")
        #expect(attribution.switched(from: Self.low, to: Self.mid, cap: nil) == .adaptive)
    }

    @Test func aCapExplainsTheNextSwitchInItsDirectionOnly() {
        var lowered = VariantAttribution()
        lowered.handle(.capChanged)
        #expect(lowered.switched(from: Self.high, to: Self.mid, cap: 2_000_000) == .cap)
        #expect(lowered.switched(from: Self.mid, to: Self.low, cap: 2_000_000) == .adaptive, "once")

        var upward = VariantAttribution()
        upward.handle(.capChanged)
        #expect(upward.switched(from: Self.mid, to: Self.high, cap: 2_000_000) == .adaptive, "the cap does not allow it: not the cap's doing")

        var lifted = VariantAttribution()
        lifted.handle(.capChanged)
        #expect(lifted.switched(from: Self.mid, to: Self.high, cap: nil) == .cap, "lifted: an upward switch is the cap's")
        lifted.handle(.capChanged)
        #expect(lifted.switched(from: Self.high, to: Self.mid, cap: nil) == .adaptive)
    }

    @Test func aLowVariantSeekExplainsTheNextSwitchBeforeACap() {
        var attribution = VariantAttribution()
        attribution.handle(.capChanged)
        attribution.handle(.seekSent(byRebuilding: true))
        #expect(attribution.lowVariantSeek)
        #expect(attribution.switched(from: Self.high, to: Self.low, cap: 2_000_000) == .seek)
        #expect(!attribution.capChanged && !attribution.lowVariantSeek)

        var inPlace = VariantAttribution()
        inPlace.handle(.capChanged)
        inPlace.handle(.seekSent(byRebuilding: true))
        inPlace.handle(.seekSent(byRebuilding: false))
        #expect(!inPlace.lowVariantSeek, "a seek in place replaced it")
        #expect(inPlace.switched(from: Self.high, to: Self.mid, cap: 2_000_000) == .cap, "the cap is still waiting")

        var completed = VariantAttribution()
        completed.handle(.seekSent(byRebuilding: true))
        completed.handle(.seekCompleted)
        #expect(completed.switched(from: Self.high, to: Self.low, cap: nil) == .adaptive)
    }
}
