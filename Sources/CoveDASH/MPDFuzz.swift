import Foundation

/// The entry point for fuzzers (libFuzzer, AFL, the mutation tests): any bytes either parse, with every
/// representation's segments expanded, or throw `DASHParseError`; never a crash, a hang or unbounded
/// memory.
package enum MPDFuzz {
    package static func run(_ bytes: [UInt8]) {
        let url = URL(string: "https://fuzz.invalid/manifest.mpd")!
        let limits = DASHParseLimits(maxSegments: 20_000)
        guard let mpd = try? MPD.parse(bytes, url: url, limits: limits) else { return }
        for period in mpd.periods {
            for set in period.adaptationSets {
                for representation in set.representations {
                    _ = try? representation.segments(in: period, of: mpd, now: 1_800_000_000, limits: limits)
                }
            }
        }
    }
}
