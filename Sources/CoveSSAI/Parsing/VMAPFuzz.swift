/// The entry point for fuzzers (libFuzzer, AFL, the mutation tests): any bytes either parse or
/// throw, never trap. Whatever parses is checked further: every raw XML fragment the parsers
/// kept must itself be readable XML, which catches escaping bugs in the fragment writer.
///
/// For libFuzzer, compile the module's sources with a harness whose `LLVMFuzzerTestOneInput`
/// calls `run`, using `swiftc -O -sanitize=fuzzer,address -parse-as-library`, and pass
/// `-detect_leaks=0`: Foundation's `XMLParser` on Linux leaks a little per reported XML error.
package enum VMAPFuzz {
    package static func run(_ bytes: [UInt8]) {
        if let document = try? VMAP.parse(bytes) {
            for fragment in document.extensions + [document.stream.rawExtensions].compactMap(\.self) {
                checkFragment(fragment)
            }
            for adBreak in document.adBreaks {
                adBreak.extensions.forEach(checkFragment)
                if case .customData(let fragment)? = adBreak.adSource?.content { checkFragment(fragment) }
                adBreak.ads.forEach(checkFragments)
            }
        }
        if let document = try? VAST.parse(bytes) {
            document.ads.forEach(checkFragments)
        }
    }

    private static func checkFragments(_ ad: VASTAd) {
        let (extensions, creatives) =
            switch ad.content {
            case .inLine(let inLine): (inLine.extensions, inLine.creatives)
            case .wrapper(let wrapper): (wrapper.extensions, wrapper.creatives)
            }
        extensions.forEach(checkFragment)
        creatives.flatMap(\.creativeExtensions).forEach(checkFragment)
        creatives.compactMap(\.nonLinearAds).flatMap(\.nonLinears).map(\.raw).forEach(checkFragment)
    }

    private static func checkFragment(_ fragment: RawXMLElement) {
        // Limits large enough that only a writer bug (bad escaping) can fail here.
        let roomy = VMAPParseLimits(
            maxBytes: .max, maxDepth: VMAPParseLimits.hardDepthCeiling, maxElements: .max,
            maxAttributesPerElement: .max, maxAttributeLength: .max, maxTextLength: .max
        )
        do {
            _ = try DocumentLoader.load(fragment.data, limits: roomy)
        } catch {
            preconditionFailure("A kept XML fragment <\(fragment.name)> does not parse back: \(error)")
        }
    }
}
