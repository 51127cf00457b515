import CovePlayerUI
import Testing

@Suite("Accessibility")
struct AccessibilityTests {
    @Test func everyButtonHasALabelInBothStatesInEveryLanguage() {
        for language in UILanguage.builtIn {
            let labels = AccessibilityLabels(localizer: Localizer(language: language))
            for tag in ControlTag.builtIn {
                let primary = labels.label(for: tag, isPrimaryState: true)
                let secondary = labels.label(for: tag, isPrimaryState: false)
                if tag == .timeSeparator || tag == .empty {
                    #expect(primary == nil && secondary == nil, "\(tag) is not spoken")
                } else {
                    #expect(primary?.isEmpty == false && secondary?.isEmpty == false, "\(language) \(tag)")
                }
            }
            #expect(labels.label(for: .custom("logo")) == nil)
        }
    }

    @Test func twoStateButtonsSayWhatPressingDoes() throws {
        let labels = AccessibilityLabels()
        #expect(labels.label(for: .playback, isPrimaryState: true) == "Play")
        #expect(labels.label(for: .playback, isPrimaryState: false) == "Pause")
        #expect(labels.label(for: .screenMode, isPrimaryState: true) == "Enter full screen")
        #expect(labels.label(for: .screenMode, isPrimaryState: false) == "Exit full screen")
        #expect(labels.label(for: .live, isPrimaryState: true) == "Live")
        #expect(labels.label(for: .live, isPrimaryState: false) == "Go to live")
        #expect(labels.label(for: .jumpBack) == "Jump back 10 s")
        #expect(labels.label(for: .currentTime) == "Current time")
        #expect(labels.label(for: .duration) == "Total time")
        #expect(labels.label(for: .progress) == "Timeline")
        let fiveSeconds = try PlayerUIOptions(jumpBackInterval: .seconds(5))
        let french = AccessibilityLabels(localizer: Localizer(language: .french), options: fiveSeconds)
        #expect(french.label(for: .jumpBack) == "Reculer de 5 s")
        #expect(french.label(for: .playback, isPrimaryState: false) == "Pause")
    }

    @Test func theAppCanOverrideLabelsAndNilKeepsTheDefault() {
        // The seed's own example: custom play/pause and full-screen labels, nil for the rest.
        let labels = AccessibilityLabels(override: { tag, isPrimaryState in
            switch tag {
            case .playback: return isPrimaryState ? "Start Playback" : "Stop Playback"
            case .screenMode: return isPrimaryState ? "Enter Fullscreen" : "Exit Fullscreen"
            case .custom("logo"): return "Brand logo"
            default: return nil
            }
        })
        #expect(labels.label(for: .playback, isPrimaryState: true) == "Start Playback")
        #expect(labels.label(for: .playback, isPrimaryState: false) == "Stop Playback")
        #expect(labels.label(for: .screenMode, isPrimaryState: false) == "Exit Fullscreen")
        #expect(labels.label(for: .closedCaption) == "Captions")
        #expect(labels.label(for: .custom("logo")) == "Brand logo")
        #expect(labels.defaultLabel(for: .playback) == "Play")
    }

    @Test func stateChangesBecomePlainSentences() throws {
        let announcer = ScreenReaderAnnouncer()
        let playing = PlayerUIState(status: .playing, position: .seconds(3))
        #expect(announcer.sentences(from: nil, to: PlayerUIState(status: .loading)) == ["Loading"])
        #expect(announcer.sentences(from: PlayerUIState(status: .loading), to: playing) == ["Playing"])
        // Progress alone is not announced.
        #expect(announcer.sentences(from: playing, to: PlayerUIState(status: .playing, position: .seconds(4))).isEmpty)
        let paused = PlayerUIState(status: .paused, position: .milliseconds(12_700))
        #expect(announcer.sentences(from: playing, to: paused) == ["Paused at 0:12"])

        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(12))
        let inAd = PlayerUIState(status: .playing, phase: .ad(ad))
        #expect(announcer.sentences(from: playing, to: inAd) == ["Ad 1 of 2, 0:12 left"])
        // The countdown ticking within the same ad says nothing; the next ad is announced.
        let laterAd = try AdPosition(index: 1, count: 2, timeLeft: .seconds(5))
        let later = PlayerUIState(status: .playing, phase: .ad(laterAd))
        #expect(announcer.sentences(from: inAd, to: later).isEmpty)
        let secondAd = try AdPosition(index: 2, count: 2)
        let second = PlayerUIState(status: .playing, phase: .ad(secondAd))
        #expect(announcer.sentences(from: later, to: second) == ["Ad 2 of 2"])
        #expect(announcer.sentences(from: second, to: playing) == ["Returning to video"])

        let captioned = PlayerUIState(status: .playing, position: .seconds(3), captions: "English")
        #expect(announcer.sentences(from: playing, to: captioned) == ["Captions: English"])
        #expect(announcer.sentences(from: captioned, to: playing) == ["Captions: Off"])
        let dubbed = PlayerUIState(status: .playing, position: .seconds(3), audio: "Français", bitrate: "Auto")
        #expect(announcer.sentences(from: playing, to: dubbed) == ["Audio: Français", "Bitrate: Auto"])

        let behind = PlayerUIState(status: .playing, isAtLiveEdge: false)
        let atEdge = PlayerUIState(status: .playing, isAtLiveEdge: true)
        #expect(announcer.sentences(from: behind, to: atEdge) == ["Playing live"])
        #expect(announcer.sentences(from: PlayerUIState(status: .buffering), to: atEdge) == ["Playing live"])
        #expect(announcer.sentences(from: playing, to: PlayerUIState(status: .ended)) == ["Playback ended"])
        #expect(announcer.sentence(for: .position(.seconds(75))) == "Position 1:15")
    }

    @Test func sentencesAreLocalized() throws {
        let ad = try AdPosition(index: 1, count: 2, timeLeft: .seconds(12))
        let expected: [UILanguage: (paused: String, ad: String, captions: String)] = [
            .english: ("Paused at 0:12", "Ad 1 of 2, 0:12 left", "Captions: Off"),
            .german: ("Pausiert bei 0:12", "Werbung 1 von 2, noch 0:12", "Untertitel: Aus"),
            .french: ("En pause à 0:12", "Annonce 1 sur 2, il reste 0:12", "Sous-titres : Désactivé"),
            .japanese: ("0:12 で一時停止中", "広告 1/2、残り 0:12", "字幕: オフ"),
            .arabic: ("متوقف مؤقتًا عند 0:12", "إعلان 1 من 2، متبقٍ 0:12", "الترجمة: إيقاف"),
        ]
        for (language, sentences) in expected {
            let announcer = ScreenReaderAnnouncer(localizer: Localizer(language: language))
            #expect(announcer.sentence(for: .paused(at: .seconds(12))) == sentences.paused)
            #expect(announcer.sentence(for: .ad(ad)) == sentences.ad)
            #expect(announcer.sentence(for: .captions(nil)) == sentences.captions)
        }
        for language in UILanguage.builtIn {
            let announcer = ScreenReaderAnnouncer(localizer: Localizer(language: language))
            for announcement in [Announcement.playing, .paused(at: .seconds(1)), .ad(ad), .captions("English"), .bitrate("Auto"), .ended, .failed] {
                let sentence = announcer.sentence(for: announcement)
                #expect(!sentence.isEmpty && !sentence.contains("{"), "\(language) \(announcement): \(sentence)")
            }
        }
    }
}
