import Foundation

/// Maps a data range onto pixels, with the tick values a reader expects (1, 2, 5 × a power of ten).
struct ChartScale: Sendable {
    enum Kind: Sendable {
        case linear
        /// Base 10; for bitrates, whose estimate can be a hundred times the top variant on a fast link.
        case logarithmic
    }

    let kind: Kind
    let domain: ClosedRange<Double>
    let range: ClosedRange<Double>
    /// A y axis draws bottom-up: the domain's lower bound at the range's upper bound.
    let inverted: Bool

    init(kind: Kind = .linear, domain: ClosedRange<Double>, range: ClosedRange<Double>, inverted: Bool = false) {
        self.kind = kind
        let lower = kind == .logarithmic ? max(domain.lowerBound, 1) : domain.lowerBound
        let upper = max(domain.upperBound, lower * (kind == .logarithmic ? 10 : 1) + (kind == .linear ? 1 : 0))
        self.domain = lower...upper
        self.range = range
        self.inverted = inverted
    }

    func callAsFunction(_ value: Double) -> Double {
        let fraction: Double
        switch kind {
        case .linear:
            fraction = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        case .logarithmic:
            let clamped = max(value, domain.lowerBound)
            fraction = (log10(clamped) - log10(domain.lowerBound)) / (log10(domain.upperBound) - log10(domain.lowerBound))
        }
        let bounded = min(max(fraction, 0), 1)
        let span = range.upperBound - range.lowerBound
        return inverted ? range.upperBound - bounded * span : range.lowerBound + bounded * span
    }

    /// About `count` round values inside the domain.
    func ticks(count: Int = 8) -> [Double] {
        switch kind {
        case .linear:
            let step = Self.niceStep(for: (domain.upperBound - domain.lowerBound) / Double(max(count, 1)))
            var values: [Double] = []
            var value = (domain.lowerBound / step).rounded(.up) * step
            while value <= domain.upperBound + step * 1e-9 {
                values.append(abs(value) < step * 1e-9 ? 0 : value)
                value += step
            }
            return values
        case .logarithmic:
            var values: [Double] = []
            var decade = pow(10, log10(domain.lowerBound).rounded(.down))
            while decade <= domain.upperBound {
                for factor in [1.0, 2, 5] where domain.contains(decade * factor) { values.append(decade * factor) }
                decade *= 10
            }
            // Too many for the height: keep the powers of ten (when there are at least two).
            let decades = values.filter { abs(log10($0).rounded() - log10($0)) < 1e-9 }
            return values.count > count && decades.count >= 2 ? decades : values
        }
    }

    /// The round step (1, 2 or 5 × 10^k) nearest above `rough`.
    static func niceStep(for rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let magnitude = pow(10, log10(rough).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= rough { return factor * magnitude }
        return 10 * magnitude
    }
}
