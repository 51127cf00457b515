import CoveCore

/// One entry of the preferred-bitrate menu: a title and a peak bitrate in bits/s (0 = no cap, automatic).
public struct BitrateOption: Sendable, Hashable, CustomStringConvertible {
    public let title: String
    public let bitrate: Int

    public init(title: String, bitrate: Int) {
        self.title = title
        self.bitrate = bitrate
    }

    public var isAutomatic: Bool { bitrate == 0 }

    public var description: String { "\(title): \(bitrate)" }
}

/// The preferred-bitrate menu (the seed's `BCOVPreferredBitrateConfig`).
///
/// The seed's rule: viewers must always be able to go back to no cap (preferred peak bitrate 0), so when
/// none of the app's options has bitrate 0 an automatic entry is added. Cove puts it first — where the
/// seed's own example lists "Auto" — and titles it with the localized "Auto"; the app's options keep
/// their order after it.
public struct BitrateMenu: Sendable, Hashable {
    /// The menu's title; nil uses the localized "Bitrate".
    public let title: String?
    /// The entries as shown, the automatic one included.
    public let options: [BitrateOption]
    /// The entry selected before the viewer chooses (an index into `options`).
    public let initialSelection: Int

    /// - Parameters:
    ///   - title: the menu's title.
    ///   - options: the app's options, in menu order.
    ///   - initialSelection: an index into the app's `options` (the seed's `indexOfInitialSelection`);
    ///     nil selects the automatic entry.
    ///   - autoTitle: the title of the added automatic entry.
    /// - Throws: `invalidBitrateOption` for a negative bitrate or an empty title, `selectionOutOfRange`
    ///   for an index outside `options`.
    public init(title: String? = nil, options: [BitrateOption], initialSelection: Int? = nil, autoTitle: String = "Auto") throws(PlayerUIError) {
        for option in options {
            guard option.bitrate >= 0 else {
                throw PlayerUIError(.invalidBitrateOption, "bitrate option \"\(option.title)\" has a negative bitrate (\(option.bitrate))")
            }
            guard !option.title.allSatisfy(\.isWhitespace) else {
                throw PlayerUIError(.invalidBitrateOption, "bitrate option with bitrate \(option.bitrate) has an empty title")
            }
        }
        if let initialSelection, !options.indices.contains(initialSelection) {
            throw PlayerUIError(.selectionOutOfRange, "initial selection \(initialSelection) is outside the \(options.count) bitrate options")
        }
        let addsAuto = !options.contains { $0.isAutomatic }
        let entries = addsAuto ? [BitrateOption(title: autoTitle, bitrate: 0)] + options : options
        self.title = title
        self.options = entries
        if let initialSelection {
            self.initialSelection = initialSelection + (addsAuto ? 1 : 0)
        } else {
            self.initialSelection = entries.firstIndex { $0.isAutomatic } ?? 0
        }
    }

    /// A menu offering each rendition of `ladder`, highest first, after the automatic entry; renditions
    /// with the same bandwidth are offered once. Titles are "720p · 2.6 Mbit/s" when the height is known,
    /// else the bitrate alone. An empty ladder gives a menu with the automatic entry only.
    public init(ladder: VariantLadder, title: String? = nil, localizer: Localizer = Localizer()) {
        var seen = Set<Int>()
        let variants = ladder.variants
            .filter { $0.bandwidth > 0 }
            .sorted { $0.bandwidth > $1.bandwidth }
            .filter { seen.insert($0.bandwidth).inserted }
        let options = variants.map { BitrateOption(title: Self.title(for: $0), bitrate: $0.bandwidth) }
        self.title = title
        self.options = [BitrateOption(title: localizer.string(.auto), bitrate: 0)] + options
        self.initialSelection = 0
    }

    /// The index of the entry with `bitrate`, if any.
    public func index(ofBitrate bitrate: Int) -> Int? { options.firstIndex { $0.bitrate == bitrate } }

    /// The menu title to show: the app's, else the localized "Bitrate".
    public func displayTitle(_ localizer: Localizer) -> String { title ?? localizer.string(.bitrate) }

    /// "2.6 Mbit/s", "800 kbit/s".
    public static func formatBitrate(_ bitsPerSecond: Int) -> String {
        if bitsPerSecond >= 1_000_000 {
            let tenths = (bitsPerSecond + 50_000) / 100_000
            return tenths % 10 == 0 ? "\(tenths / 10) Mbit/s" : "\(tenths / 10).\(tenths % 10) Mbit/s"
        }
        return "\((bitsPerSecond + 500) / 1000) kbit/s"
    }

    private static func title(for variant: Variant) -> String {
        let rate = formatBitrate(variant.bandwidth)
        guard let height = variant.height else { return rate }
        return "\(height)p · \(rate)"
    }
}
