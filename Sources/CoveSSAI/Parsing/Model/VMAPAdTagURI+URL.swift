import Foundation

extension VMAPAdTagURI {
    /// The ad tag as a `URL`, or nil while it still holds characters a URL cannot (unreplaced macros).
    public var url: URL? { URL(string: uri) }
}
