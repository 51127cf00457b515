/// Variant choices an ABR policy or a "start low" rule needs. None of them reorders `variants`:
/// the written order stays the player's default start.
extension MasterPlaylist {
    /// Variants by ascending `BANDWIDTH`; equal bandwidths keep their written order.
    public var variantsByBandwidth: [VariantStream] {
        variants.enumerated()
            .sorted { $0.element.bandwidth != $1.element.bandwidth ? $0.element.bandwidth < $1.element.bandwidth : $0.offset < $1.offset }
            .map(\.element)
    }

    /// The variant with the smallest `BANDWIDTH` (the first written among equals).
    public var lowestVariant: VariantStream? {
        variants.min { $0.bandwidth < $1.bandwidth }
    }

    /// The highest variant whose `BANDWIDTH` fits under `peakBitrate` (bits per second), or the
    /// lowest variant when none fits — a cap must never leave the player with nothing to play.
    public func variant(fittingPeakBitrate peakBitrate: Int) -> VariantStream? {
        let sorted = variantsByBandwidth
        return sorted.last { $0.bandwidth <= peakBitrate } ?? sorted.first
    }

    /// The highest-bandwidth variant whose resolution fits in `width`×`height`. Variants without
    /// a `RESOLUTION` (audio-only) never fit; nil when nothing fits.
    public func highestVariant(fittingWidth width: Int, height: Int) -> VariantStream? {
        variantsByBandwidth.last { variant in
            guard let resolution = variant.resolution else { return false }
            return resolution.width <= width && resolution.height <= height
        }
    }
}
