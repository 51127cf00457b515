/// The common part of every reader's error — HLS playlists, WebVTT, the XML guard and tree, VMAP and
/// VAST, DASH MPDs: what went wrong (the format's kind), where (line, column, byte offset, the thing
/// concerned) and two sentences, what was wrong and what to do about it.
///
/// Each format keeps its own public error type with its own `Kind` (apps switch on those), stores one
/// of these and shows its fields under the names apps know; the place and the message are written here,
/// so every reader words them the same way. Messages never quote URLs or attribute values (they carry
/// tokens): `detail` and `advice` name the element, tag or attribute instead.
///
/// Package-internal (`package`), like `TextInput`.
@usableFromInline
package struct InputFailure<Kind: Hashable & Sendable>: Hashable, Sendable {
    package var kind: Kind
    /// 1-based line of the problem, when known.
    package var line: Int?
    /// 1-based column of the problem, when known (written only with a line).
    package var column: Int?
    /// Offset of the offending byte in the input (a byte-order mark counts), for byte-level problems.
    package var byteOffset: Int?
    /// What the problem concerns, as the input names it: an element's qualified name, a playlist tag
    /// without its `#`. Each format says how to write it (`<Period>`, `EXT-X-KEY URI`).
    package var subject: String?
    /// What was wrong, in one sentence.
    package var detail: String
    /// What the author of the input (or the caller) can do about it.
    package var advice: String

    package init(
        _ kind: Kind, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil, subject: String? = nil, detail: String, advice: String
    ) {
        self.kind = kind
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.subject = subject
        self.detail = detail
        self.advice = advice
    }

    /// The same failure as another kind: a wrapping format's (the ad document's refusal of what the
    /// XML reader refused), keeping the place and the sentences.
    package func map<Other>(_ transform: (Kind) -> Other) -> InputFailure<Other> {
        InputFailure<Other>(transform(kind), line: line, column: column, byteOffset: byteOffset, subject: subject, detail: detail, advice: advice)
    }

    /// Where it happened, for messages: "line 3, column 7, byte 120, <Period>"; empty when nothing is
    /// known. `written` is the subject as the format writes it.
    package func place(subject written: String?) -> String {
        var parts: [String] = []
        if let line { parts.append(column.map { "line \(line), column \($0)" } ?? "line \(line)") }
        if let byteOffset { parts.append("byte \(byteOffset)") }
        if let written, !written.isEmpty { parts.append(written) }
        return parts.joined(separator: ", ")
    }

    /// Where a message puts the place.
    package enum PlaceStyle: Sendable {
        /// "HLS playlist rejected (tooManyLines, line 250001): …"
        case withKind
        /// "WebVTT rejected (invalidUTF8) at line 2, byte 34: …"
        case afterKind
    }

    /// The whole message: `rejection`, the kind's `name`, the place, then `detail` and `advice`.
    package func message(_ rejection: String, kind name: String, subject written: String? = nil, style: PlaceStyle = .withKind) -> String {
        let place = place(subject: written)
        let head =
            switch style {
            case .withKind: place.isEmpty ? "\(rejection) (\(name))" : "\(rejection) (\(name), \(place))"
            case .afterKind: place.isEmpty ? "\(rejection) (\(name))" : "\(rejection) (\(name)) at \(place)"
            }
        return "\(head): \(detail) \(advice)"
    }
}

/// A format's public error built on an `InputFailure`: what `InputLimits` checks throw.
@usableFromInline
package protocol InputError: Error {
    associatedtype Kind: Hashable & Sendable
    init(_ failure: InputFailure<Kind>)
}
