/// An ad that passed validation (inline, with a positive linear duration) but has no stream
/// position yet.
struct PlacedAd: Sendable, Hashable {
    let vastAd: VASTAd
    let inLine: VASTInLine
    let linear: VASTLinear
    let duration: AdTime
    /// Where warnings about this ad point.
    let location: String

    /// The ads of one VMAP break that can be placed; each one that cannot is named in `warnings`.
    static func playable(in adBreak: VMAPAdBreak, at location: String, warnings: inout [AdTimelineWarning]) -> [PlacedAd] {
        adBreak.ads.enumerated().compactMap { position, ad in
            let here = location.step("Ad", position + 1, id: ad.id)
            switch ad.content {
            case .wrapper:
                warnings.append(
                    AdTimelineWarning(
                        .unresolvedWrapper, location: here,
                        message: "The ad is a VAST wrapper; resolve wrappers with VASTWrapperResolver before building the timeline. The ad was dropped."
                    ))
                return nil
            case .inLine(let inLine):
                guard let linear = inLine.creatives.lazy.compactMap(\.linear).first(where: { $0.duration != nil }),
                    let duration = linear.duration
                else {
                    warnings.append(
                        AdTimelineWarning(
                            .adWithoutDuration, location: here,
                            message: "The ad has no linear creative with a Duration, so its place in the stream is unknown. The ad was dropped."
                        ))
                    return nil
                }
                guard duration > .zero else {
                    warnings.append(
                        AdTimelineWarning(
                            .zeroDurationAd, location: here,
                            message: "The ad's Duration is zero; it takes no time in the stream. The ad was dropped."
                        ))
                    return nil
                }
                return PlacedAd(vastAd: ad, inLine: inLine, linear: linear, duration: duration, location: here)
            }
        }
    }
}
