/// Arithmetic the timeline needs on `AdTime`. Queries take arbitrary times from the app and the
/// engine, so they saturate instead of trapping; building checks for overflow and throws instead.
extension AdTime {
    /// The largest time `AdTime` holds (about 292 years).
    static let max = AdTime(uncheckedNanoseconds: .max)

    /// The sum, capped at `AdTime.max`.
    func saturatingAdding(_ other: AdTime) -> AdTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(other.nanoseconds)
        return AdTime(uncheckedNanoseconds: overflow ? .max : sum)
    }

    /// The difference, floored at zero (both are non-negative, so it cannot overflow).
    func saturatingSubtracting(_ other: AdTime) -> AdTime {
        AdTime(uncheckedNanoseconds: Swift.max(0, nanoseconds - other.nanoseconds))
    }

    /// The absolute difference, for comparing lengths against a tolerance.
    func distance(to other: AdTime) -> AdTime {
        self < other ? other.saturatingSubtracting(self) : saturatingSubtracting(other)
    }

    /// `percent` (0…100) of this time, rounded to the nearest nanosecond and never more than the
    /// whole: `Double` has 53 bits, so very long times could otherwise round past their end.
    func fraction(percent: Double) -> AdTime {
        let scaled = (Double(nanoseconds) * percent / 100).rounded()
        guard scaled.isFinite, scaled > 0 else { return .zero }
        guard let value = Int64(exactly: scaled) else { return self }
        return AdTime(uncheckedNanoseconds: Swift.min(value, nanoseconds))
    }
}
