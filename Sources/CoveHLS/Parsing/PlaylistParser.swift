/// Decides whether a playlist is a master or a media playlist, then hands its lines to the
/// matching builder. Deciding first (instead of guessing from the first tag) lets a playlist
/// that mixes both kinds fail with both lines named.
enum PlaylistParser {
    static let masterTags: Set<Substring> = [
        "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA", "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY",
    ]
    static let mediaTags: Set<Substring> = [
        "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE", "EXT-X-PLAYLIST-TYPE",
        "EXT-X-ENDLIST", "EXT-X-I-FRAMES-ONLY", "EXTINF", "EXT-X-BYTERANGE", "EXT-X-DISCONTINUITY", "EXT-X-KEY",
        "EXT-X-MAP", "EXT-X-PROGRAM-DATE-TIME", "EXT-X-DATERANGE", "EXT-X-GAP",
    ]

    static func parse(_ bytes: [UInt8], limits: HLSParseLimits) throws(HLSParseError) -> HLSPlaylist {
        let lines = try LineReader.read(bytes, limits: limits)
        var firstMaster: PlaylistLine?
        var firstMedia: PlaylistLine?
        var firstURI: PlaylistLine?
        for line in lines {
            guard let name = line.tagName else {
                if firstURI == nil { firstURI = line }
                continue
            }
            if firstMaster == nil, masterTags.contains(name) { firstMaster = line }
            if firstMedia == nil, mediaTags.contains(name) { firstMedia = line }
            if let master = firstMaster, let media = firstMedia {
                let (earlier, later) = master.number < media.number ? (master, media) : (media, master)
                let laterKind = later.number == master.number ? "master" : "media"
                let earlierKind = laterKind == "master" ? "media" : "master"
                throw HLSParseError(
                    .mixedPlaylistKinds, line: later.number, tag: later.tagName.map(String.init),
                    detail:
                        "\(later.tagName ?? "") is a \(laterKind)-playlist tag, but line \(earlier.number) has \(earlier.tagName ?? ""), a \(earlierKind)-playlist tag.",
                    advice: "A playlist is either a master playlist (variants) or a media playlist (segments); split it into two files."
                )
            }
        }
        if firstMaster != nil {
            var builder = MasterPlaylistBuilder(limits: limits)
            return .master(try builder.build(lines))
        }
        if firstMedia != nil {
            var builder = MediaPlaylistBuilder(limits: limits)
            return .media(try builder.build(lines))
        }
        throw HLSParseError(
            .missingTargetDuration, line: firstURI?.number,
            detail: firstURI == nil
                ? "The playlist has no variants, no segments and no EXT-X-TARGETDURATION."
                : "The playlist lists URIs but has neither EXT-X-STREAM-INF (master) nor EXT-X-TARGETDURATION and EXTINF (media) tags.",
            advice:
                "Add EXT-X-TARGETDURATION and an EXTINF before each segment URI for a media playlist, or an EXT-X-STREAM-INF before each variant URI for a master playlist."
        )
    }
}
