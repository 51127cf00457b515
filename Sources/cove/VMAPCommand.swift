import ArgumentParser
import CoveCore
import CovePlayerControls
import CoveSSAI
import Foundation

/// `cove vmap FILE|URL`: the ad timeline Cove builds from a VMAP — breaks and ads with their stream and
/// content ranges and the beacon URLs per event — or the typed error saying what is wrong with it.
/// With `--json` each ad also carries `vast`: the whole parsed VAST ad (the model's own encoding, so
/// nothing the parser read is left out: error URLs, media files, verifications, icons, captions…).
struct VMAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vmap",
        abstract: "Parse a VMAP file or URL and print its ad timeline (breaks, ads, stream/content ranges, beacons per event).",
        discussion:
            "Times are in seconds. Unresolved VAST wrappers, bad offsets and ads without durations are dropped with warnings; a document that is not usable VMAP is an error (exit status 1). The stitched stream's URL prints with its tokens REDACTED unless --show-secrets. --json adds each ad's whole VAST (icons, closed captions, media files, verifications, error URLs…) under \"vast\"."
    )

    @Argument(help: "A VMAP file path or an http(s) URL.")
    var source: String

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(name: .customLong("show-secrets"), help: "Print the stitched stream's URL tokens as they are.")
    var showSecrets = false

    func run() async throws {
        let bytes: [UInt8]
        do {
            bytes = try await InputBytes.load(source, limit: VMAPParseLimits.default.maxBytes)
        } catch {
            Terminal.error("cove vmap: \(error)")
            throw ExitCode(1)
        }
        let document: VMAPDocument
        let timeline: AdTimeline
        do throws(VMAPParseError) {
            document = try VMAP.parse(bytes)
        } catch {
            report(kind: error.kind.rawValue, message: error.description)
            throw ExitCode(1)
        }
        do throws(AdTimelineError) {
            timeline = try AdTimeline.make(from: document)
        } catch {
            report(kind: "timeline", message: error.description)
            throw ExitCode(1)
        }
        let value = describe(document, timeline)
        if json {
            Terminal.line(value.serialized(pretty: true))
        } else {
            printText(value, timeline)
        }
    }

    private func report(kind: String, message: String) {
        if json {
            Terminal.line(JSONValue.object(["error": .object(["kind": .string(kind), "message": .string(message)])]).serialized(pretty: true))
        } else {
            Terminal.error("cove vmap: \(message)")
        }
    }

    private func describe(_ document: VMAPDocument, _ timeline: AdTimeline) -> JSONValue {
        let seconds = { (t: AdTime) -> JSONValue in .double(t.seconds) }
        let urls = { (list: [String]) -> JSONValue in .array(list.map(JSONValue.string)) }
        var stream: JSONObject = ["flavour": .string(document.stream.flavour.rawValue)]
        if let url = document.stream.contentURL { stream["contentURL"] = .string(showSecrets ? url : Redaction.redact(urlString: url)) }
        if let length = document.stream.contentLength { stream["contentLength"] = seconds(length) }
        if let length = document.stream.payloadLength { stream["payloadLength"] = seconds(length) }
        if let thumbnails = document.stream.thumbnailsURL { stream["thumbnailsURL"] = .string(thumbnails) }
        if !document.stream.contentImpressions.isEmpty { stream["contentImpressions"] = .int(Int64(document.stream.contentImpressions.count)) }
        let breaks: [JSONValue] = timeline.breaks.map { adBreak in
            var beacons: [String: [String]] = [:]
            for event in adBreak.trackingEvents { beacons[event.event.rawValue, default: []].append(event.url) }
            let ads: [JSONValue] = adBreak.ads.map { ad in
                var adBeacons: [String: [String]] = [
                    "impression": ad.impressions.map(\.url), "clickTracking": ad.clickTracking.map(\.url),
                    "iconView": ad.icons.filter(\.hasResource).flatMap(\.viewTracking),
                ]
                for event in ad.trackingEvents { adBeacons[event.event.rawValue, default: []].append(event.url) }
                var fields: JSONObject = [
                    "index": .int(Int64(ad.index)), "duration": seconds(ad.duration),
                    "streamStart": seconds(ad.streamRange.lowerBound), "streamEnd": seconds(ad.streamRange.upperBound),
                    "beacons": .object(adBeacons.filter { !$0.value.isEmpty }.mapValues(urls)),
                    "quartiles": .object([
                        "start": seconds(ad.quartiles.start), "firstQuartile": seconds(ad.quartiles.firstQuartile),
                        "midpoint": seconds(ad.quartiles.midpoint), "thirdQuartile": seconds(ad.quartiles.thirdQuartile),
                        "complete": seconds(ad.quartiles.complete),
                    ]),
                ]
                if let id = ad.id { fields["id"] = .string(id) }
                if let title = ad.title { fields["title"] = .string(title) }
                if let skip = ad.skipStreamTime { fields["skippableAt"] = seconds(skip) }
                if let click = ad.clickThrough { fields["clickThrough"] = .string(click.url) }
                if !ad.companions.isEmpty { fields["companions"] = .int(Int64(ad.companions.count)) }
                fields["vast"] = Self.encoded(ad.vastAd)
                return .object(fields)
            }
            var fields: JSONObject = [
                "index": .int(Int64(adBreak.index)), "kind": .string(adBreak.kind.rawValue),
                "contentOffset": seconds(adBreak.contentOffset), "duration": seconds(adBreak.duration),
                "streamStart": seconds(adBreak.streamRange.lowerBound), "streamEnd": seconds(adBreak.streamRange.upperBound),
                "ads": .array(ads), "beacons": .object(beacons.mapValues(urls)),
            ]
            if let id = adBreak.id { fields["id"] = .string(id) }
            // A VAST response's own <Error> URLs (no ad, or an ad that could not play).
            let errorURLs = adBreak.sources.flatMap { source -> [String] in
                if case .vast(let vast)? = source.adSource?.content { vast.errorURLs } else { [] }
            }
            if !errorURLs.isEmpty { fields["vastErrorURLs"] = urls(errorURLs) }
            return .object(fields)
        }
        var object: JSONObject = [
            "stream": .object(stream), "breaks": .array(breaks),
            "totalAdDuration": seconds(timeline.totalAdDuration),
            "warnings": .array((document.warnings.map(\.description) + timeline.warnings.map(\.description)).map(JSONValue.string)),
        ]
        if let duration = timeline.contentDuration { object["contentDuration"] = seconds(duration) }
        if let duration = timeline.streamDuration { object["streamDuration"] = seconds(duration) }
        return .object(object)
    }

    /// The ad as the model encodes it. Encoding fails only on a number JSON cannot hold, which the
    /// parser never produces; should it happen, the ad says so rather than the command failing.
    private static func encoded(_ ad: VASTAd) -> JSONValue {
        do {
            return try JSONValue.parse(Array(JSONEncoder().encode(ad)), limits: JSONLimits(maxBytes: .max))
        } catch {
            return .object(["error": .string("The ad could not be encoded as JSON: \(error)")])
        }
    }

    private func printText(_ value: JSONValue, _ timeline: AdTimeline) {
        let number = { (v: JSONValue?) in v?.doubleValue.map { String(format: "%.3f", $0) } ?? "?" }
        Terminal.line(
            "stream: \(value["stream"]?["flavour"]?.stringValue ?? "?"), content \(number(value["contentDuration"])) s, stream \(number(value["streamDuration"])) s"
        )
        for (adBreak, placed) in zip(value["breaks"]?.arrayValue ?? [], timeline.breaks) {
            Terminal.line(
                "break \(adBreak["index"]?.int64Value ?? 0) (\(adBreak["kind"]?.stringValue ?? "")) at content \(number(adBreak["contentOffset"])) s, stream \(number(adBreak["streamStart"]))–\(number(adBreak["streamEnd"])) s"
            )
            for (ad, model) in zip(adBreak["ads"]?.arrayValue ?? [], placed.ads) {
                let title = ad["title"]?.stringValue ?? ad["id"]?.stringValue ?? "ad"
                let events = (ad["beacons"]?.objectValue ?? [:]).keys.sorted().joined(separator: ", ")
                Terminal.line(
                    "  ad \(ad["index"]?.int64Value ?? 0) “\(title)” \(number(ad["duration"])) s at stream \(number(ad["streamStart"])) s; beacons: \(events)")
                for line in Self.details(of: model) { Terminal.line("    \(line)") }
            }
        }
        for warning in value["warnings"]?.arrayValue ?? [] { Terminal.error("warning: \(warning.stringValue ?? "")") }
    }
}

extension VMAPCommand {
    /// What the text output adds under an ad, one short line per kind of thing it has (nothing when
    /// it has none): the VAST pieces a reader checks by eye, with --json holding the details.
    static func details(of ad: AdTimeline.Ad) -> [String] {
        var lines: [String] = []
        if ad.vastAd.conditionalAd == true { lines.append("conditional ad") }
        let creatives = ad.inLine.creatives
        let ids = creatives.flatMap(\.universalAdIds).map { "\($0.idRegistry ?? "unknown") \($0.value)" }
        if !ids.isEmpty { lines.append("universal ad id: " + ids.joined(separator: ", ")) }
        for icon in ad.icons {
            var text = "icon \(icon.program ?? "(no program)")"
            if let width = icon.width, let height = icon.height { text += " \(width)×\(height)" }
            if icon.xPosition != nil || icon.yPosition != nil {
                text += " at \(icon.xPosition?.description ?? "?"), \(icon.yPosition?.description ?? "?")"
            }
            if let offset = icon.offset { text += " from \(String(format: "%.3f", offset.seconds)) s" }
            if let duration = icon.duration { text += " for \(String(format: "%.3f", duration.seconds)) s" }
            var counts = ["\(icon.viewTracking.count) view beacon(s)", "\(icon.clickTracking.count) click beacon(s)"]
            if !icon.clickFallbackImages.isEmpty { counts.append("\(icon.clickFallbackImages.count) click fallback image(s)") }
            lines.append(text + (icon.hasResource ? "" : " (nothing to show)") + "; " + counts.joined(separator: ", "))
        }
        let captions = ad.linear.closedCaptionFiles.map { "\($0.language ?? "?") (\($0.type ?? "?"))" }
        if !captions.isEmpty { lines.append("closed captions: " + captions.joined(separator: ", ")) }
        let linear = ad.linear
        var files: [String] = []
        if !linear.mediaFiles.isEmpty { files.append("\(linear.mediaFiles.count) media file(s)") }
        if !linear.mezzanines.isEmpty { files.append("\(linear.mezzanines.count) mezzanine(s)") }
        if !linear.interactiveCreativeFiles.isEmpty { files.append("\(linear.interactiveCreativeFiles.count) interactive file(s)") }
        if !ad.inLine.adVerifications.isEmpty { files.append("\(ad.inLine.adVerifications.count) verification(s)") }
        if !ad.inLine.errorURLs.isEmpty { files.append("\(ad.inLine.errorURLs.count) error URL(s)") }
        if !files.isEmpty { lines.append(files.joined(separator: ", ")) }
        return lines
    }
}
