/// Reading direction of the UI language: right to left mirrors every control bar (Arabic).
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    case leftToRight
    case rightToLeft
}
