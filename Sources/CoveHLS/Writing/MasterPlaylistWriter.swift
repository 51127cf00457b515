/// Writes a master playlist in a fixed order: header tags, session data and keys, renditions,
/// variants (each after its verbatim unknown tags), I-frame variants, then the remaining
/// verbatim tags.
extension MasterPlaylist {
    public func serialized() -> String {
        var out = PlaylistText()
        out.version(version)
        out.independentSegmentsAndStart(hasIndependentSegments, start)
        for data in sessionData {
            var attributes = AttributeWriter()
            attributes.quoted("DATA-ID", data.dataID)
            switch data.content {
            case .value(let value): attributes.quoted("VALUE", value)
            case .uri(let uri): attributes.quoted("URI", uri)
            }
            attributes.quoted("LANGUAGE", data.language)
            attributes.others(data.otherAttributes)
            out.tag("EXT-X-SESSION-DATA", attributes)
        }
        for key in sessionKeys {
            out.tag("EXT-X-SESSION-KEY", PlaylistText.attributes(of: key))
        }
        for rendition in renditions {
            var attributes = AttributeWriter()
            attributes.unquoted("TYPE", rendition.type.rawValue)
            attributes.quoted("GROUP-ID", rendition.groupID)
            attributes.quoted("NAME", rendition.name)
            attributes.quoted("LANGUAGE", rendition.language)
            attributes.quoted("ASSOC-LANGUAGE", rendition.associatedLanguage)
            attributes.flag("DEFAULT", rendition.isDefault)
            attributes.flag("AUTOSELECT", rendition.isAutoselect)
            attributes.flag("FORCED", rendition.isForced)
            attributes.quoted("INSTREAM-ID", rendition.instreamID)
            attributes.list("CHARACTERISTICS", rendition.characteristics)
            attributes.quoted("CHANNELS", rendition.channels)
            attributes.quoted("URI", rendition.uri)
            attributes.others(rendition.otherAttributes)
            out.tag("EXT-X-MEDIA", attributes)
        }
        for variant in variants {
            out.verbatim(variant.unknownTags)
            var attributes = AttributeWriter()
            attributes.streamRate(variant.bandwidth, variant.averageBandwidth, variant.codecs, variant.resolution)
            attributes.decimal("FRAME-RATE", variant.frameRate)
            attributes.streamProtection(variant.hdcpLevel, variant.videoRange)
            attributes.quoted("AUDIO", variant.audioGroup)
            attributes.quoted("VIDEO", variant.videoGroup)
            attributes.quoted("SUBTITLES", variant.subtitlesGroup)
            switch variant.closedCaptions {
            case .group(let group)?: attributes.quoted("CLOSED-CAPTIONS", group)
            case .disabled?: attributes.unquoted("CLOSED-CAPTIONS", "NONE")
            case nil: break
            }
            attributes.others(variant.otherAttributes)
            out.tag("EXT-X-STREAM-INF", attributes)
            out.uri(variant.uri)
        }
        for variant in iFrameVariants {
            var attributes = AttributeWriter()
            attributes.streamRate(variant.bandwidth, variant.averageBandwidth, variant.codecs, variant.resolution)
            attributes.streamProtection(variant.hdcpLevel, variant.videoRange)
            attributes.quoted("VIDEO", variant.videoGroup)
            attributes.quoted("URI", variant.uri)
            attributes.others(variant.otherAttributes)
            out.tag("EXT-X-I-FRAME-STREAM-INF", attributes)
        }
        out.verbatim(unknownTags)
        return out.text
    }
}

/// The attributes `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` share, in the order both write
/// them (a variant puts `FRAME-RATE` between the two groups).
private extension AttributeWriter {
    mutating func streamRate(_ bandwidth: Int, _ averageBandwidth: Int?, _ codecs: [String], _ resolution: Resolution?) {
        integer("BANDWIDTH", bandwidth)
        integer("AVERAGE-BANDWIDTH", averageBandwidth)
        list("CODECS", codecs)
        unquoted("RESOLUTION", resolution?.description)
    }

    mutating func streamProtection(_ hdcpLevel: HDCPLevel?, _ videoRange: VideoRange?) {
        unquoted("HDCP-LEVEL", hdcpLevel?.rawValue)
        unquoted("VIDEO-RANGE", videoRange?.rawValue)
    }
}
