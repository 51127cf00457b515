import CoveInput

extension WebVTTParseError {
    /// What `WebVTT.parse` found instead of text (`Kind.binaryData`).
    ///
    /// The spec's parser would decode any bytes and then fail on the signature, or, for a file
    /// that starts with `WEBVTT`, turn the rest into blocks of U+FFFD. Cove refuses these up
    /// front instead, because "the first line is not WEBVTT" tells nobody that the subtitle URL
    /// serves a video segment or an undecompressed body, and that is what actually goes wrong.
    public enum BinaryKind: String, Sendable, Hashable, CaseIterable {
        /// An MPEG-2 transport stream: the sync byte 0x47 starts every 188-byte packet (or every
        /// 192-byte M2TS packet after its 4-byte time code).
        case mpegTS
        /// ISO BMFF media (MP4, fMP4/CMAF): a box such as `ftyp`, `styp`, `moof` or `moov` first.
        case isoBMFF
        /// An ID3v2 tag, which packed audio segments (AAC, MP3) start with.
        case id3
        /// A PNG image (a thumbnail sprite instead of the thumbnail track, for example).
        case png
        /// A JPEG image.
        case jpeg
        /// A gzip stream: a compressed response body that was never decompressed.
        case gzip
        /// More than half of the bytes are NUL or other control characters (not tab, line feed,
        /// form feed or carriage return): no caption file comes near that, while the spec's case,
        /// a few stray NULs, is far below it and is parsed.
        case mostlyControlBytes
    }
}

/// Cove's guard against binary input, run before the spec's algorithm: recognises media, images
/// and compressed data by their magic bytes, and data that is mostly control bytes, so that the
/// error says what the URL really served. Everything else goes to the spec's parser, which
/// replaces stray NULs and ill-formed UTF-8 with U+FFFD and parses on.
enum BinarySniff {
    /// What `bytes` (from `start`, after a UTF-8 byte-order mark) are, when clearly not text.
    static func kind(of bytes: [UInt8], from start: Int) -> WebVTTParseError.BinaryKind? {
        let data = bytes[start...]
        if isTransportStream(data) { return .mpegTS }
        if boxType(data) != nil { return .isoBMFF }
        if data.count >= 10, data.starts(with: [0x49, 0x44, 0x33]), (2...4).contains(data[data.startIndex + 3]) { return .id3 }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if data.starts(with: [0x1F, 0x8B, 0x08]) { return .gzip }
        if controlByteCount(data) * 2 > data.count { return .mostlyControlBytes }
        return nil
    }

    /// Whether the text is UTF-16: a UTF-16 byte-order mark, or `WEBVTT` spelled in UTF-16 without
    /// one. Checked before the control-byte share, because ASCII in UTF-16 is half NUL bytes and
    /// deserves its own advice (re-encode), not "binary".
    static func isUTF16(_ bytes: [UInt8], from start: Int) -> Bool {
        if TextInput.startsWithUTF16ByteOrderMark(bytes) { return true }
        let signature = Array("WEBVTT".utf8)
        let data = bytes[start...]
        return data.starts(with: signature.flatMap { [$0, 0] }) || data.starts(with: signature.flatMap { [0, $0] })
    }

    /// NUL, the other C0 controls but tab, line feed, form feed and carriage return, and DEL.
    ///
    /// "Mostly" means more than half of all the bytes, for three reasons: captions are printable
    /// text and line breaks (a file of blank lines counts nothing), so no real file comes near it;
    /// the spec's case, a few NULs from a broken encoder, is a tiny share and is parsed as the spec
    /// says; and UTF-16 text, exactly half NUL, is recognised before this with better advice.
    static func controlByteCount(_ data: ArraySlice<UInt8>) -> Int {
        data.withUnsafeBufferPointer { buffer in
            var count = 0
            for byte in buffer where byte < 0x20 || byte == 0x7F {
                if byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D { count += 1 }
            }
            return count
        }
    }

    /// At least one whole packet, and the sync byte at every packet start within the first five:
    /// a short text answer starting with "G" is not a transport stream.
    private static func isTransportStream(_ data: ArraySlice<UInt8>) -> Bool {
        for (offset, size) in [(0, 188), (4, 192)] {
            guard data.count >= size else { continue }
            let starts = stride(from: data.startIndex + offset, to: min(data.endIndex, data.startIndex + offset + 5 * size), by: size)
            if starts.allSatisfy({ data[$0] == 0x47 }) { return true }
        }
        return false
    }

    /// The type of the ISO BMFF box the data starts with, when it is one media files start with.
    /// The size's two high bytes must be zero (these boxes are small), which text never has.
    static func boxType(_ data: ArraySlice<UInt8>) -> String? {
        guard data.count >= 8, data[data.startIndex] == 0, data[data.startIndex + 1] == 0 else { return nil }
        let type = String(decoding: data[(data.startIndex + 4)..<(data.startIndex + 8)], as: UTF8.self)
        return ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft"].contains(type) ? type : nil
    }

    /// The error for `kind`: what was found, and what to check.
    static func error(_ kind: WebVTTParseError.BinaryKind, in data: ArraySlice<UInt8>) -> WebVTTParseError {
        let media = "Check that the URL serves the WebVTT file and not a media segment (a subtitle rendition's playlist must list .vtt files)."
        let (detail, advice): (String, String) =
            switch kind {
            case .mpegTS: ("The data is an MPEG-2 transport stream (the sync byte 0x47 starts every packet), not WebVTT text.", media)
            case .isoBMFF:
                (
                    "The data is ISO BMFF media (MP4 or fMP4: it starts with a '\(boxType(data) ?? "ftyp")' box), not WebVTT text.",
                    media + " WebVTT carried inside fMP4 (wvtt) is read from the media, not as a file."
                )
            case .id3: ("The data starts with an ID3 tag, as packed audio (AAC, MP3) segments do; it is not WebVTT text.", media)
            case .png, .jpeg:
                (
                    "The data is a \(kind == .png ? "PNG" : "JPEG") image, not WebVTT text.",
                    "Check that the URL is the .vtt file; a thumbnail track lists its images, it is not one."
                )
            case .gzip:
                (
                    "The data is gzip-compressed, not WebVTT text.",
                    "Decompress the body before parsing it (the server sent Content-Encoding: gzip, or the file is a .vtt.gz)."
                )
            case .mostlyControlBytes:
                (
                    "\(controlByteCount(data)) of the \(data.count) bytes are NUL or other control characters, which text never is: the data is binary, or a zero-filled or truncated file.",
                    "Check that the URL serves the WebVTT file and that the whole body was read. A few NUL bytes are accepted (each becomes U+FFFD, as the spec says); a file made mostly of them is not."
                )
            }
        return WebVTTParseError(.binaryData(kind), line: nil, detail: detail, advice: advice)
    }
}
