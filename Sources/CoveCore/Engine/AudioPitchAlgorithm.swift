/// How audio sounds when playback runs at a rate other than 1 (the seed's `audioTimePitchAlgorithm`).
public enum AudioPitchAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// The pitch is kept and time is stretched: speech at 2× sounds fast, not high (AVFoundation's
    /// `AVAudioTimePitchAlgorithmTimeDomain`, what the seed uses for a custom rate).
    case timeStretch
    /// The pitch follows the rate, as a tape or record played faster (`AVAudioTimePitchAlgorithmVarispeed`):
    /// at 2× a tone sounds an octave higher.
    case varispeed
}
