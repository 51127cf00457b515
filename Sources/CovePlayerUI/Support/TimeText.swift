/// Clock-style times for labels and sentences: "0:12", "12:34", "1:02:03", "-0:30".
public enum TimeText: Sendable {
    /// Which whole second a fractional time shows as.
    public enum Rounding: Sendable, Hashable {
        /// Elapsed time: 11.9 s still shows 0:11 until the twelfth second is reached.
        case down
        /// Time left: 0.2 s left still shows 0:01, so a countdown never reads 0:00 before it ends.
        case up
    }

    /// Minutes and seconds, with hours when there are any; a leading "-" for negative times (a live
    /// DVR position behind the live edge).
    public static func clock(_ duration: Duration, rounding: Rounding = .down) -> String {
        // `components` truncates toward zero: both parts carry the sign.
        let (seconds, attoseconds) = duration.components
        let negative = seconds < 0 || attoseconds < 0
        var whole = seconds.magnitude
        if rounding == .up, attoseconds != 0, !negative { whole += 1 }
        let total = Int(clamping: whole)
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        let sign = negative && total > 0 ? "-" : ""
        let twoDigits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(sign)\(h):\(twoDigits(m)):\(twoDigits(s))" : "\(sign)\(m):\(twoDigits(s))"
    }
}
