import CoveCore
import Foundation

/// The seed's SSAI URL variables: `content.vmap?foo={{url.foo}}` passes app data into the SSAI system
/// once each `{{url.<name>}}` is replaced with a value. Values are percent-encoded for a query
/// component (the seed's sample inserts them raw, which breaks on `&`, `#` or spaces).
public enum SSAIURLVariables {
    /// The variable names in `url`, in order of first appearance.
    public static func names(in url: String) -> [String] {
        var names: [String] = []
        var rest = url[...]
        while let open = rest.range(of: "{{url."), let close = rest[open.upperBound...].range(of: "}}") {
            let name = String(rest[open.upperBound..<close.lowerBound])
            if !name.isEmpty, !names.contains(name) { names.append(name) }
            rest = rest[close.upperBound...]
        }
        return names
    }

    /// `url` with every `{{url.<name>}}` that `values` knows replaced; unknown ones are left as they are
    /// (`names(in:)` on the result lists them).
    public static func replacing(in url: String, with values: [String: String]) -> String {
        var result = url
        for name in names(in: url) {
            guard let value = values[name] else { continue }
            result = result.replacingOccurrences(of: "{{url.\(name)}}", with: encode(value))
        }
        return result
    }

    /// A copy of `video` whose sources' `vmap` URLs have their variables replaced (the seed's
    /// `replaceSSAIVariablesInJSON`, on the typed video instead of the raw JSON).
    public static func replacing(in video: Video, with values: [String: String]) -> Video {
        video.update { video in
            video.sources = video.sources.map { source in
                guard let vmap = source.properties[Source.PropertyKey.vmap]?.stringValue, vmap.contains("{{url.") else { return source }
                return source.update { $0.properties[Source.PropertyKey.vmap] = .string(replacing(in: vmap, with: values)) }
            }
        }
    }

    private static let queryValueCharacters: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?/")
        return allowed
    }()

    private static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? value
    }
}
