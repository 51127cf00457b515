import CoveCore

/// The tile rectangle type, defined in the core so sessions and image codecs share it.
public typealias ThumbnailRect = CoveCore.ThumbnailRect

extension ThumbnailRect {
    /// Why a fragment's `xywh` could not be read.
    struct Failure: Error {
        let reason: String
    }

    /// The rectangle in a URI fragment (without `#`): nil when the fragment has no `xywh`
    /// dimension (the whole image is meant), a failure when it has a malformed one. Dimensions
    /// are `&`-separated and the last `xywh` wins, as Media Fragments specify.
    static func parse(fragment: String) -> Result<ThumbnailRect?, Failure> {
        guard let value = fragment.split(separator: "&").last(where: { $0.hasPrefix("xywh=") })?.dropFirst(5) else {
            return .success(nil)
        }
        var numbers = value
        var unit = Unit.pixel
        if numbers.hasPrefix("pixel:") {
            numbers = numbers.dropFirst(6)
        } else if numbers.hasPrefix("percent:") {
            numbers = numbers.dropFirst(8)
            unit = .percent
        }
        let parts = numbers.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return .failure(Failure(reason: "xywh needs four comma-separated numbers")) }
        var values: [Int] = []
        for part in parts {
            // Nine digits keep every value far from overflow while allowing any real image.
            guard !part.isEmpty, part.count <= 9, part.utf8.allSatisfy(TimestampSyntax.isDigit), let number = Int(part) else {
                return .failure(Failure(reason: "xywh values must be whole numbers of at most nine digits"))
            }
            values.append(number)
        }
        guard values[2] > 0, values[3] > 0 else { return .failure(Failure(reason: "xywh width and height must be positive")) }
        if unit == .percent, values[0] + values[2] > 100 || values[1] + values[3] > 100 {
            return .failure(Failure(reason: "percent xywh must stay within the image (0 to 100)"))
        }
        return .success(ThumbnailRect(x: values[0], y: values[1], width: values[2], height: values[3], unit: unit))
    }
}
