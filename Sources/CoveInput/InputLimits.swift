/// A format's bounds on what its reader accepts (bytes, line length, depth, elements, lines, cues,
/// segments…), so a hostile or broken server cannot make it use unbounded memory, time or stack.
///
/// Each format keeps its own public limits type with its own defaults; adopting this gives every limit
/// a name (`Limit`, the property's name), the error kind that says it was exceeded and what to do
/// besides raising it, and gives the readers one way to check them: `check` throws the format's error
/// (`violation` returns it, for callbacks that cannot throw), worded the same way by every format —
/// the detail from the call site, which says what was counted where, then the remedy and the setting
/// to raise with its current value.
///
/// A count is what there would be with the item being read: `check(.maxCues, cues.count + 1, …)`
/// before appending one; a limit admits a count up to and including its value.
///
/// Package-internal (`package`), like `TextInput`. The protocol, its requirements and their witnesses
/// are `@usableFromInline` so that `check` inlines into the readers' loops: a check made for every
/// byte or line must cost a comparison, not a generic call.
@usableFromInline
package protocol InputLimits {
    /// The limits by name; `rawValue` is the property an app sets (`maxLines`).
    associatedtype Limit: RawRepresentable<String>
    /// The format's error, thrown when a limit is exceeded.
    associatedtype Failure: InputError

    /// The value in force for `limit` (checked on every item read: keep it a plain switch).
    func value(of limit: Limit) -> Int
    /// The kind of the error saying `limit` was exceeded, and what the author of the input can do
    /// besides raising it, as the start of a sentence ("Shorten the playlist (a smaller live window)").
    func exceeding(_ limit: Limit) -> (kind: Failure.Kind, remedy: String)
    /// Where an app raises `limit` ("HLSParseLimits.maxLines"), or nil when the format fixes it.
    /// By default the type's name and the limit's.
    func setting(for limit: Limit) -> String?
}

extension InputLimits {
    @usableFromInline
    package func setting(for limit: Limit) -> String? { "\(Self.self).\(limit.rawValue)" }

    /// Whether `count` items fit within `limit`.
    @inlinable
    package func admits(_ limit: Limit, _ count: Int) -> Bool { count <= value(of: limit) }

    /// Throws the format's error when `count` goes over `limit`. The place and the detail are only
    /// worked out when it does.
    @inlinable
    package func check(
        _ limit: Limit, _ count: Int, line: @autoclosure () -> Int? = nil, column: @autoclosure () -> Int? = nil,
        subject: @autoclosure () -> String? = nil, detail: @autoclosure () -> String
    ) throws(Failure) {
        guard count > value(of: limit) else { return }
        throw exceeded(limit, line: line(), column: column(), subject: subject(), detail: detail())
    }

    /// The format's error when `count` goes over `limit`, else nil (for readers that report errors
    /// through a callback rather than by throwing).
    @inlinable
    package func violation(
        _ limit: Limit, _ count: Int, line: @autoclosure () -> Int? = nil, column: @autoclosure () -> Int? = nil,
        subject: @autoclosure () -> String? = nil, detail: @autoclosure () -> String
    ) -> Failure? {
        guard count > value(of: limit) else { return nil }
        return exceeded(limit, line: line(), column: column(), subject: subject(), detail: detail())
    }

    /// The format's error saying `limit` was exceeded.
    @usableFromInline
    package func exceeded(_ limit: Limit, line: Int? = nil, column: Int? = nil, subject: String? = nil, detail: String) -> Failure {
        Failure(failure(exceeding: limit, line: line, column: column, subject: subject, detail: detail))
    }

    /// The common part of that error, for formats whose error holds more (an HLS attribute).
    package func failure(
        exceeding limit: Limit, line: Int? = nil, column: Int? = nil, subject: String? = nil, detail: String
    ) -> InputFailure<Failure.Kind> {
        InputFailure(exceeding(limit).kind, line: line, column: column, subject: subject, detail: detail, advice: advice(for: limit))
    }

    /// What to do when `limit` is exceeded: the remedy, then the setting to raise and its value
    /// ("…; if it is legitimate, raise HLSParseLimits.maxLines (now 250000)."). A fixed limit gets
    /// the remedy alone.
    package func advice(for limit: Limit) -> String {
        let remedy = exceeding(limit).remedy
        guard let setting = setting(for: limit) else { return remedy + "." }
        return "\(remedy); if it is legitimate, raise \(setting) (now \(value(of: limit)))."
    }
}

/// Warnings a reader keeps, up to a limit: past it they are only counted, so a file of a million
/// junk blocks costs a count each rather than a million stored messages.
package struct WarningLog<Warning> {
    package let limit: Int
    package private(set) var items: [Warning] = []
    /// How many were not stored.
    package private(set) var omitted = 0

    package init(limit: Int) { self.limit = limit }

    /// Callers check this before building a warning's text, so that past the limit a warning
    /// costs a count and no formatting.
    package var isFull: Bool { items.count >= limit }

    package mutating func add(_ warning: Warning) {
        if isFull { omitted += 1 } else { items.append(warning) }
    }

    package mutating func countOmitted() {
        omitted += 1
    }
}

extension WarningLog: Sendable where Warning: Sendable {}
