import CoveCore

/// The app-facing `Ad` and `AdSequence` values for a timeline's ads and breaks.
enum SSAIAdValues {
    static func media(_ time: AdTime) -> MediaTime { MediaTime(nanoseconds: time.nanoseconds) }
    static func duration(_ time: AdTime) -> Duration { .nanoseconds(time.nanoseconds) }

    static func ad(_ ad: AdTimeline.Ad) -> Ad {
        var tracking: [String: [String]] = [:]
        if !ad.impressions.isEmpty { tracking["impression"] = ad.impressions.map(\.url) }
        for event in ad.trackingEvents { tracking[event.event.rawValue, default: []].append(event.url) }
        if !ad.clickTracking.isEmpty { tracking["clickTracking"] = ad.clickTracking.map(\.url) }
        var properties: JSONObject = [:]
        if let system = ad.inLine.adSystem { properties["adSystem"] = .string(system.name) }
        let extensions = ad.inLine.extensions.map { JSONValue.string($0.xml) }
        if !extensions.isEmpty { properties["extensions"] = .array(extensions) }
        let creativeExtensions = ad.inLine.creatives.flatMap(\.creativeExtensions).map { JSONValue.string($0.xml) }
        if !creativeExtensions.isEmpty { properties["creativeExtensions"] = .array(creativeExtensions) }
        let companions = ad.companions.map { companion -> JSONValue in
            var object: JSONObject = [:]
            if let width = companion.width { object["width"] = .int(Int64(width)) }
            if let height = companion.height { object["height"] = .int(Int64(height)) }
            return .object(object)
        }
        if !companions.isEmpty { properties["companions"] = .array(companions) }
        let skip = ad.skipStreamTime.map { duration($0.saturatingSubtracting(ad.streamRange.lowerBound)) }
        return Ad(
            sequenceIndex: ad.breakIndex, index: ad.index, title: ad.title, adID: ad.id, beginTime: media(ad.streamRange.lowerBound),
            duration: duration(ad.duration), skipOffset: skip, clickThroughURL: ad.clickThrough?.url, trackingURLs: tracking, properties: properties
        )
    }

    static func sequence(_ adBreak: AdTimeline.Break) -> AdSequence {
        var properties: JSONObject = ["kind": .string(adBreak.kind.rawValue)]
        if let id = adBreak.id { properties["breakId"] = .string(id) }
        return AdSequence(
            index: adBreak.index, beginTime: media(adBreak.streamRange.lowerBound), duration: duration(adBreak.duration),
            contentTime: media(adBreak.contentOffset), ads: adBreak.ads.map(ad), properties: properties
        )
    }
}
