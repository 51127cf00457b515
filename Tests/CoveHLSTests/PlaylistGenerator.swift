import CoveTesting

/// Writes random but valid playlists as text, in the many spellings real servers use (CRLF,
/// BOM, comments, blank lines, shuffled attributes, implicit byte-range offsets, unknown tags),
/// so round-trip and mutation tests start from varied, realistic input.
struct PlaylistGenerator {
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A generated playlist and what the generator knows it must parse to.
    struct Output {
        let text: String
        let isMaster: Bool
        let entryCount: Int
    }

    // MARK: Pieces

    private mutating func decimal(_ range: ClosedRange<Double>) -> String {
        let value = Double.random(in: range, using: &random)
        switch random.int(0...4) {
        case 0: return String(Int(value))
        case 1: return String(Int(value)) + ".000000"
        case 2: return String(Int(value * 1000) / 1000) + "." + String(format3(Int(value * 1000) % 1000))
        case 3: return "\(Int(value)).\(random.int(0...999_999_999))"
        default: return String(Int(value)) + "."
        }
    }

    private func format3(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }

    private mutating func word() -> String {
        random.pick(["a", "main", "low", "hi", "en", "de-DE", "Commentary", "Café", "東京", "x y", "q=1&r=2", "#hash", "a,b", "🎬"])
    }

    private mutating func uri(_ stem: String) -> String {
        switch random.int(0...4) {
        case 0: return "\(stem).ts"
        case 1: return "https://cdn.example.com/path/\(stem).m4s?token=\(random.int(0...99_999))"
        case 2: return "../\(stem)/index.m3u8"
        case 3: return "/abs/\(stem) file.ts"
        default: return "\(stem)-\(word()).mp4"
        }
    }

    private mutating func quoted(_ text: String) -> String { "\"" + text + "\"" }

    private mutating func hex(bytes: Int) -> String {
        "0x"
            + (0..<bytes).map { _ in
                let byte = random.int(0...255)
                let digits = Array("0123456789abcdefABCDEF")
                return String([digits[byte >> 4], digits[byte & 0xF]])
            }.joined()
    }

    private mutating func date() -> String {
        let base = "20\(random.int(10...39))-0\(random.int(1...9))-1\(random.int(0...9))T1\(random.int(0...9)):\(random.int(10...59)):\(random.int(10...59))"
        return base + random.pick([".000Z", "Z", "+02:00", ".123456-0530", "", "z"])
    }

    private mutating func attributes(_ pairs: [(String, String)]) -> String {
        var list = pairs
        if random.chance(0.5) { list.shuffle(using: &random) }
        return list.map { "\($0.0)=\($0.1)" }.joined(separator: random.chance(0.9) ? "," : ", ")
    }

    private mutating func unknownTag() -> String {
        random.pick([
            "#EXT-X-BITRATE:\(random.int(100...9000))",
            "#EXT-X-PART:DURATION=0.5,URI=\"p\(random.int(0...9)).mp4\"",
            "#EXT-X-CUE-OUT:30",
            "#EXT-X-CUE-IN",
            "#EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAABf+/+ANgNkv4AFJlwAAEBAQAA5g1jWQ==",
            "#EXTX-WEIRD",
            "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"1\"",
        ])
    }

    private mutating func noise() -> [String] {
        var lines: [String] = []
        if random.chance(0.1) { lines.append("") }
        if random.chance(0.1) { lines.append("# comment \(word())") }
        return lines
    }

    private mutating func join(_ lines: [String]) -> String {
        let ending = random.chance(0.2) ? "\r\n" : "\n"
        let padded = lines.enumerated().map { $0.offset > 0 && random.chance(0.03) ? "  \($0.element)\t" : $0.element }
        let bom = random.chance(0.1) ? "\u{FEFF}" : ""
        return bom + padded.joined(separator: ending) + (random.chance(0.8) ? ending : "")
    }

    private mutating func key(allowNone: Bool) -> String {
        if allowNone, random.chance(0.2) { return "METHOD=NONE" }
        var pairs = [("METHOD", random.pick(["AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"])), ("URI", quoted(uri("key")))]
        if random.chance(0.4) { pairs.append(("IV", hex(bytes: random.int(1...16)))) }
        if random.chance(0.5) {
            pairs.append(("KEYFORMAT", quoted(random.pick(["identity", "com.apple.streamingkeydelivery", "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"]))))
        }
        if random.chance(0.3) { pairs.append(("KEYFORMATVERSIONS", quoted(random.pick(["1", "1/2/5"])))) }
        return attributes(pairs)
    }

    private mutating func start() -> String {
        var pairs = [("TIME-OFFSET", (random.chance(0.5) ? "-" : "") + decimal(0...60))]
        if random.chance(0.5) { pairs.append(("PRECISE", random.pick(["YES", "NO"]))) }
        return "#EXT-X-START:" + attributes(pairs)
    }

    // MARK: Media

    mutating func mediaPlaylist() -> Output {
        var lines = ["#EXTM3U"]
        var header: [String] = ["#EXT-X-TARGETDURATION:\(random.int(1...12))"]
        if random.chance(0.7) { header.append("#EXT-X-VERSION:\(random.int(1...10))") }
        if random.chance(0.5) { header.append("#EXT-X-MEDIA-SEQUENCE:\(random.int(0...1_000_000))") }
        if random.chance(0.3) { header.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(random.int(0...50))") }
        if random.chance(0.4) { header.append("#EXT-X-PLAYLIST-TYPE:\(random.pick(["VOD", "EVENT"]))") }
        if random.chance(0.1) { header.append("#EXT-X-I-FRAMES-ONLY") }
        if random.chance(0.3) { header.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if random.chance(0.2) { header.append(start()) }
        header.shuffle(using: &random)
        lines += header

        let count = random.int(0...30)
        var previousURI: String?
        var previousHadRange = false
        var rangeEnd = 0
        for index in 0..<count {
            lines += noise()
            if random.chance(0.1) { lines.append(unknownTag()) }
            if random.chance(0.1) { lines.append("#EXT-X-DISCONTINUITY") }
            if random.chance(0.15) { lines.append("#EXT-X-KEY:" + key(allowNone: true)) }
            if random.chance(0.1) {
                var pairs = [("URI", quoted(uri("init")))]
                if random.chance(0.5) { pairs.append(("BYTERANGE", quoted("\(random.int(1...9999))" + (random.chance(0.5) ? "@\(random.int(0...99))" : "")))) }
                lines.append("#EXT-X-MAP:" + attributes(pairs))
            }
            if random.chance(0.15) { lines.append("#EXT-X-PROGRAM-DATE-TIME:" + date()) }
            if random.chance(0.05) { lines.append("#EXT-X-GAP") }
            if random.chance(0.08) { lines.append(dateRange()) }
            let title = random.chance(0.3) ? word() : ""
            lines.append("#EXTINF:" + decimal(0...12) + (random.chance(0.95) ? "," + title : ""))
            let reuse = previousHadRange && random.chance(0.6)
            let segmentURI = reuse ? (previousURI ?? "x.mp4") : uri("s\(index)")
            if random.chance(0.3) || reuse {
                let length = random.int(1...100_000)
                if reuse, random.chance(0.7) {
                    lines.append("#EXT-X-BYTERANGE:\(length)")
                    rangeEnd += length
                } else {
                    let offset = random.int(0...1_000_000)
                    lines.append("#EXT-X-BYTERANGE:\(length)@\(offset)")
                    rangeEnd = offset + length
                }
                previousHadRange = true
            } else {
                previousHadRange = false
            }
            lines.append(segmentURI)
            previousURI = segmentURI
        }
        if random.chance(0.2) { lines.append(unknownTag()) }
        if random.chance(0.1) { lines.append("#EXT-X-KEY:" + key(allowNone: true)) }
        if random.chance(0.1) { lines.append(dateRange()) }
        if random.chance(0.6) { lines.append("#EXT-X-ENDLIST") }
        return Output(text: join(lines), isMaster: false, entryCount: count)
    }

    private mutating func dateRange() -> String {
        var pairs = [("ID", quoted("r\(random.int(0...999))")), ("START-DATE", quoted(date()))]
        let endOnNext = random.chance(0.1)
        if random.chance(0.5) || endOnNext { pairs.append(("CLASS", quoted("com.example.\(word())"))) }
        if endOnNext {
            pairs.append(("END-ON-NEXT", "YES"))
        } else {
            if random.chance(0.3) { pairs.append(("END-DATE", quoted(date()))) }
            if random.chance(0.5) { pairs.append(("DURATION", decimal(0...120))) }
        }
        if random.chance(0.3) { pairs.append(("PLANNED-DURATION", decimal(0...120))) }
        if random.chance(0.3) { pairs.append(("SCTE35-OUT", hex(bytes: random.int(1...40)))) }
        if random.chance(0.2) { pairs.append(("SCTE35-CMD", hex(bytes: random.int(1...40)))) }
        if random.chance(0.2) { pairs.append(("SCTE35-IN", hex(bytes: random.int(1...40)))) }
        if random.chance(0.4) { pairs.append(("X-ASSET-URI", quoted(uri("asset")))) }
        if random.chance(0.3) { pairs.append(("X-COUNT", decimal(0...9))) }
        if random.chance(0.2) { pairs.append(("X-BLOB", hex(bytes: 4))) }
        if random.chance(0.1) { pairs.append(("CUE", quoted("PRE,ONCE"))) }
        return "#EXT-X-DATERANGE:" + attributes(pairs)
    }

    // MARK: Master

    mutating func masterPlaylist() -> Output {
        var lines = ["#EXTM3U"]
        if random.chance(0.6) { lines.append("#EXT-X-VERSION:\(random.int(3...10))") }
        if random.chance(0.4) { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if random.chance(0.2) { lines.append(start()) }
        for index in 0..<random.int(0...2) {
            var pairs = [("DATA-ID", quoted("com.example.d\(index)"))]
            pairs.append(random.chance(0.5) ? ("VALUE", quoted(word())) : ("URI", quoted(uri("data"))))
            if random.chance(0.4) { pairs.append(("LANGUAGE", quoted("en"))) }
            lines.append("#EXT-X-SESSION-DATA:" + attributes(pairs))
        }
        if random.chance(0.3) { lines.append("#EXT-X-SESSION-KEY:" + key(allowNone: false)) }
        let audioGroups = ["aac", "ec3"]
        for _ in 0..<random.int(0...5) {
            lines += noise()
            lines.append("#EXT-X-MEDIA:" + rendition(audioGroups: audioGroups))
        }
        let count = random.int(1...12)
        for index in 0..<count {
            lines += noise()
            if random.chance(0.1) { lines.append(unknownTag()) }
            var pairs = [("BANDWIDTH", "\(random.int(0...20_000_000))")]
            if random.chance(0.5) { pairs.append(("AVERAGE-BANDWIDTH", "\(random.int(0...20_000_000))")) }
            if random.chance(0.7) {
                pairs.append(("CODECS", quoted(random.pick(["avc1.42c015,mp4a.40.2", "avc1.64001f", "hvc1.2.4.L123.B0, ec-3", "mp4a.40.5", ""]))))
            }
            if random.chance(0.7) { pairs.append(("RESOLUTION", "\(random.int(1...3840))x\(random.int(1...2160))")) }
            if random.chance(0.4) { pairs.append(("FRAME-RATE", decimal(1...120))) }
            if random.chance(0.2) { pairs.append(("HDCP-LEVEL", random.pick(["TYPE-0", "TYPE-1", "NONE"]))) }
            if random.chance(0.2) { pairs.append(("VIDEO-RANGE", random.pick(["SDR", "PQ", "HLG"]))) }
            if random.chance(0.4) { pairs.append(("AUDIO", quoted(random.pick(audioGroups)))) }
            if random.chance(0.2) { pairs.append(("VIDEO", quoted("vid"))) }
            if random.chance(0.2) { pairs.append(("SUBTITLES", quoted("subs"))) }
            if random.chance(0.3) { pairs.append(("CLOSED-CAPTIONS", random.chance(0.5) ? "NONE" : quoted("cc"))) }
            if random.chance(0.2) { pairs.append(("PROGRAM-ID", "1")) }
            if random.chance(0.1) { pairs.append(("PATHWAY-ID", quoted("CDN-\(random.int(0...3))"))) }
            lines.append("#EXT-X-STREAM-INF:" + attributes(pairs))
            lines += noise()
            lines.append(uri("v\(index)"))
            if random.chance(0.2) {
                var iframe = [("BANDWIDTH", "\(random.int(0...900_000))"), ("URI", quoted(uri("i\(index)")))]
                if random.chance(0.5) { iframe.append(("RESOLUTION", "\(random.int(1...3840))x\(random.int(1...2160))")) }
                if random.chance(0.3) { iframe.append(("CODECS", quoted("avc1.4d401e"))) }
                lines.append("#EXT-X-I-FRAME-STREAM-INF:" + attributes(iframe))
            }
        }
        if random.chance(0.2) { lines.append(unknownTag()) }
        return Output(text: join(lines), isMaster: true, entryCount: count)
    }

    private mutating func rendition(audioGroups: [String]) -> String {
        let type = random.pick(["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"])
        let group: String
        switch type {
        case "AUDIO": group = random.pick(audioGroups)
        case "VIDEO": group = "vid"
        case "SUBTITLES": group = "subs"
        default: group = "cc"
        }
        var pairs = [("TYPE", type), ("GROUP-ID", quoted(group)), ("NAME", quoted(word()))]
        if random.chance(0.6) { pairs.append(("LANGUAGE", quoted(random.pick(["en", "de", "pt-BR", "und"])))) }
        if random.chance(0.1) { pairs.append(("ASSOC-LANGUAGE", quoted("en-US"))) }
        if random.chance(0.4) { pairs.append(("DEFAULT", random.pick(["YES", "NO"]))) }
        if random.chance(0.4) { pairs.append(("AUTOSELECT", random.pick(["YES", "NO"]))) }
        if type == "SUBTITLES", random.chance(0.3) { pairs.append(("FORCED", random.pick(["YES", "NO"]))) }
        if random.chance(0.2) { pairs.append(("CHARACTERISTICS", quoted("public.accessibility.describes-video,public.easy-to-read"))) }
        if type == "AUDIO", random.chance(0.5) { pairs.append(("CHANNELS", quoted(random.pick(["2", "6", "16/JOC"])))) }
        if type == "CLOSED-CAPTIONS" {
            pairs.append(("INSTREAM-ID", quoted(random.pick(["CC1", "CC3", "SERVICE2"]))))
        } else if random.chance(0.8) {
            pairs.append(("URI", quoted(uri("r"))))
        }
        if random.chance(0.1) { pairs.append(("STABLE-RENDITION-ID", quoted("s\(random.int(0...9))"))) }
        return attributes(pairs)
    }
}
