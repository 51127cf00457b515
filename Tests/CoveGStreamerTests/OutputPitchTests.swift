import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Testing

extension RealEngineTests.OutputTests {
    /// The seed's pitch algorithm under a playback rate, heard through the audio tap: the fixture's
    /// 440 Hz tone stays at 440 Hz at 2× with time stretch (the default) and rises an octave, to 880 Hz,
    /// with varispeed.
    @Test(arguments: [(AudioPitchAlgorithm.timeStretch, 440.0), (.varispeed, 880.0)])
    func theToneAtTwiceTheRateFollowsThePitchAlgorithm(algorithm: AudioPitchAlgorithm, expected: Double) async throws {
        let s = try await Setup.start()
        defer { Task { await s.stop() } }
        let audio = Recorded<AudioSamples>()
        let controller = s.controller(video: .headless, audio: .samples(AudioSampleReceiver { audio.append($0) }))
        controller.audioPitchAlgorithm = algorithm
        controller.playbackRate = 2
        let recorder = EventRecorder(controller)
        controller.isAutoPlay = true
        controller.setVideos([s.video])
        try await s.h.diagnosingFailure { try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(1) } else { false } } }
        let from = audio.all.count
        try await recorder.waitFor { if case .progress(_, let t) = $0 { t >= .seconds(3) } else { false } }
        controller.shutdown()
        let heard = Array(audio.all.dropFirst(from))
        let seconds = heard.reduce(0.0) { $0 + Double($1.samples.count / max($1.channels, 1)) / Double($1.sampleRate) }
        #expect(seconds > 0.4, "enough of the tone to measure: \(seconds) s")
        let frequency = Self.frequency(of: heard)
        #expect(abs(frequency - expected) / expected < 0.05, "\(algorithm) at 2×: \(frequency) Hz, expected \(expected) Hz")
    }

    /// The first channel's frequency by its zero crossings.
    static func frequency(of buffers: [AudioSamples]) -> Double {
        var crossings = 0
        var frames = 0
        var previous: Float?
        var sampleRate = 48_000
        for buffer in buffers {
            sampleRate = buffer.sampleRate
            for index in Swift.stride(from: 0, to: buffer.samples.count, by: max(buffer.channels, 1)) {
                let value = buffer.samples[index]
                if let previous, (previous < 0) != (value < 0) { crossings += 1 }
                previous = value
                frames += 1
            }
        }
        guard frames > 0 else { return 0 }
        return Double(crossings) / 2 / (Double(frames) / Double(sampleRate))
    }
}
