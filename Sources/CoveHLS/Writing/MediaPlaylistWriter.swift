/// Writes a media playlist: header tags, all date ranges, then each segment with the tags that
/// change before it (keys and map only when they differ from the previous segment), then the
/// verbatim trailing tags and `EXT-X-ENDLIST`.
///
/// Normalisation: byte ranges are written with explicit offsets, and an `EXT-X-MAP` can only be
/// introduced or changed, never removed (HLS has no way to say "no map from here on").
extension MediaPlaylist {
    public func serialized() -> String {
        var out = PlaylistText()
        out.version(version)
        out.line("#EXT-X-TARGETDURATION:" + String(max(0, targetDuration)))
        if mediaSequence != 0 { out.line("#EXT-X-MEDIA-SEQUENCE:" + String(max(0, mediaSequence))) }
        if discontinuitySequence != 0 { out.line("#EXT-X-DISCONTINUITY-SEQUENCE:" + String(max(0, discontinuitySequence))) }
        if let playlistType { out.line("#EXT-X-PLAYLIST-TYPE:" + playlistType.rawValue) }
        if isIFramesOnly { out.line("#EXT-X-I-FRAMES-ONLY") }
        out.independentSegmentsAndStart(hasIndependentSegments, start)
        for range in dateRanges { out.tag("EXT-X-DATERANGE", Self.attributes(of: range)) }

        var keysInForce: [EncryptionKey] = []
        var mapInForce: MediaInitializationSection?
        for segment in segments {
            out.verbatim(segment.unknownTags)
            if segment.isDiscontinuity { out.line("#EXT-X-DISCONTINUITY") }
            if segment.keys != keysInForce {
                Self.writeKeys(from: keysInForce, to: segment.keys, into: &out)
                keysInForce = segment.keys
            }
            if let map = segment.map, map != mapInForce {
                var attributes = AttributeWriter()
                attributes.quoted("URI", map.uri)
                attributes.quoted("BYTERANGE", map.byteRange?.description)
                attributes.others(map.otherAttributes)
                out.tag("EXT-X-MAP", attributes)
                mapInForce = map
            }
            if let date = segment.programDateTime { out.line("#EXT-X-PROGRAM-DATE-TIME:" + AttributeWriter.singleLine(date.text)) }
            if segment.isGap { out.line("#EXT-X-GAP") }
            out.line("#EXTINF:" + DecimalText.format(max(0, segment.duration)) + "," + AttributeWriter.singleLine(segment.title ?? ""))
            if let range = segment.byteRange { out.line("#EXT-X-BYTERANGE:" + range.description) }
            out.uri(segment.uri)
        }
        out.verbatim(unknownTags)
        if hasEndList { out.line("#EXT-X-ENDLIST") }
        return out.text
    }

    /// Writes the fewest key tags that turn `old` into `new` under the parser's rules: a key
    /// replaces the one of its format, `METHOD=NONE` clears all. Clearing first is only needed
    /// when replacing in place cannot reach `new` (a format dropped, or the order changed).
    private static func writeKeys(from old: [EncryptionKey], to new: [EncryptionKey], into out: inout PlaylistText) {
        let replaced = new.reduce(old) { KeyAndMapTags.applying($1, to: $0) }
        if new.isEmpty || replaced != new { out.line("#EXT-X-KEY:METHOD=NONE") }
        for key in new { out.tag("EXT-X-KEY", PlaylistText.attributes(of: key)) }
    }

    private static func attributes(of range: DateRange) -> AttributeWriter {
        var attributes = AttributeWriter()
        attributes.quoted("ID", range.id)
        attributes.quoted("CLASS", range.rangeClass)
        attributes.quoted("START-DATE", range.startDate.text)
        attributes.quoted("END-DATE", range.endDate?.text)
        attributes.decimal("DURATION", range.duration.map { max(0, $0) })
        attributes.decimal("PLANNED-DURATION", range.plannedDuration.map { max(0, $0) })
        attributes.hexadecimal("SCTE35-CMD", range.scte35Command)
        attributes.hexadecimal("SCTE35-OUT", range.scte35Out)
        attributes.hexadecimal("SCTE35-IN", range.scte35In)
        attributes.flag("END-ON-NEXT", range.endOnNext)
        attributes.others(range.clientAttributes)
        attributes.others(range.otherAttributes)
        return attributes
    }
}
