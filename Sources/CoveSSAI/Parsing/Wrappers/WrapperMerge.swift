/// Folds the wrappers' beacons into the inline ad they led to, as VAST requires: a wrapper's
/// impressions, errors, linear and non-linear tracking, click tracking and verifications all fire
/// alongside the inline ad's own. The inline ad's own entries come first, then the wrappers',
/// innermost first. Click-throughs stay the inline ad's (VAST ignores a wrapper's); a wrapper's
/// companions are used only when the inline ad has none.
///
/// Icons (VAST 3 and 4.1: a wrapper may carry them, and a player shows one icon per program):
/// a wrapper's icon is kept when no icon closer to the inline ad has its program, so an AdChoices
/// badge added by an intermediary still shows. When one does, that closer icon is the one shown and
/// the wrapper's icon gives it its view and click tracking, which the wrapper's server still expects.
enum WrapperMerge {
    static func merge(_ inLine: VASTInLine, of ad: VASTAd, sequence: Int?, wrappers: [VASTWrapper]) -> VASTAd {
        let wrappers = Array(wrappers.reversed())
        let wrapperCreatives = wrappers.flatMap(\.creatives)
        let linearTracking = wrapperCreatives.compactMap(\.linear).flatMap(\.trackingEvents)
        let linearClicks = wrapperCreatives.compactMap(\.linear).map(\.videoClicks)
        let nonLinearTracking = wrapperCreatives.compactMap(\.nonLinearAds).flatMap(\.trackingEvents)
        let wrapperIcons = wrapperCreatives.compactMap(\.linear).flatMap(\.icons)

        var creatives = inLine.creatives.map { creative in
            VASTCreative(
                id: creative.id, adId: creative.adId, sequence: creative.sequence, apiFramework: creative.apiFramework,
                universalAdIds: creative.universalAdIds,
                linear: creative.linear.map { linear in
                    VASTLinear(
                        duration: linear.duration, skipOffset: linear.skipOffset,
                        trackingEvents: linear.trackingEvents + linearTracking,
                        videoClicks: VASTVideoClicks(
                            clickThrough: linear.videoClicks.clickThrough,
                            clickTracking: linear.videoClicks.clickTracking + linearClicks.flatMap(\.clickTracking),
                            customClicks: linear.videoClicks.customClicks + linearClicks.flatMap(\.customClicks)
                        ),
                        mediaFiles: linear.mediaFiles, adParameters: linear.adParameters,
                        icons: mergeIcons(linear.icons, wrapperIcons), closedCaptionFiles: linear.closedCaptionFiles,
                        mezzanines: linear.mezzanines, interactiveCreativeFiles: linear.interactiveCreativeFiles
                    )
                },
                companionAds: creative.companionAds,
                nonLinearAds: creative.nonLinearAds.map {
                    VASTNonLinearAds(nonLinears: $0.nonLinears, trackingEvents: $0.trackingEvents + nonLinearTracking)
                },
                creativeExtensions: creative.creativeExtensions
            )
        }
        if !creatives.contains(where: { $0.companionAds != nil }) {
            creatives += wrapperCreatives.filter { $0.companionAds != nil }
        }

        let merged = VASTInLine(
            adSystem: inLine.adSystem, adTitle: inLine.adTitle, adServingId: inLine.adServingId,
            description: inLine.description, advertiser: inLine.advertiser,
            impressions: inLine.impressions + wrappers.flatMap(\.impressions),
            viewableImpressions: inLine.viewableImpressions + wrappers.flatMap(\.viewableImpressions),
            errorURLs: inLine.errorURLs + wrappers.flatMap(\.errorURLs),
            creatives: creatives,
            extensions: inLine.extensions + wrappers.flatMap(\.extensions),
            adVerifications: inLine.adVerifications + wrappers.flatMap(\.adVerifications)
        )
        return VASTAd(id: ad.id, sequence: sequence, adType: ad.adType, conditionalAd: ad.conditionalAd, content: .inLine(merged))
    }

    /// The inline icons, then each wrapper icon (innermost first) whose program is not yet there;
    /// one whose program is (compared without letter case) adds its tracking to that icon instead.
    /// Icons without a program cannot be matched, so they are all kept.
    static func mergeIcons(_ icons: [VASTIcon], _ wrapperIcons: [VASTIcon]) -> [VASTIcon] {
        var merged = icons
        for icon in wrapperIcons {
            let program = icon.program?.lowercased()
            if let program, let index = merged.firstIndex(where: { $0.program?.lowercased() == program }) {
                merged[index] = merged[index].adding(viewTracking: icon.viewTracking, clickTracking: icon.clickTracking)
            } else {
                merged.append(icon)
            }
        }
        return merged
    }
}
