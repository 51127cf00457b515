extension JSONValue {
    /// Seconds to the millisecond, as the QoE figures and the timeline write them.
    static func seconds(_ value: Double) -> JSONValue { .double((value * 1000).rounded() / 1000) }
}
