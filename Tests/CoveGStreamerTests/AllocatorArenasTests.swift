import Foundation
import Testing

@testable import CoveGStreamerEngine

/// The arena cap an app asks for: two per core by default, never below two, and never over a
/// `MALLOC_ARENA_MAX` the process was launched with.
@Suite struct AllocatorArenasTests {
    @Test func twoPerCoreByDefault() {
        #expect(AllocatorArenas.arenaCount(perCore: 2, processors: 2, environment: [:]) == 4)
        #expect(AllocatorArenas.arenaCount(perCore: 2, processors: 16, environment: [:]) == 32)
    }

    @Test func neverFewerThanTwoArenas() {
        #expect(AllocatorArenas.arenaCount(perCore: 1, processors: 1, environment: [:]) == 2)
        #expect(AllocatorArenas.arenaCount(perCore: 0, processors: 0, environment: [:]) == 2)
        #expect(AllocatorArenas.arenaCount(perCore: -3, processors: 4, environment: [:]) == 4)
    }

    @Test func anArenaMaximumInTheEnvironmentIsLeftAlone() {
        #expect(AllocatorArenas.arenaCount(perCore: 2, processors: 2, environment: ["MALLOC_ARENA_MAX": "8"]) == nil)
        #expect(AllocatorArenas.arenaCount(perCore: 2, processors: 2, environment: ["MALLOC_ARENA_MAX": ""]) == 4)
    }

    @Test func largeBlocksAreMappedFromTheThresholdUnlessTheEnvironmentSetIt() {
        #expect(AllocatorArenas.mmapThreshold(bytes: 256 << 10, environment: [:]) == 256 << 10)
        #expect(AllocatorArenas.mmapThreshold(bytes: 1, environment: [:]) == 64 << 10)
        #expect(AllocatorArenas.mmapThreshold(bytes: 256 << 10, environment: ["MALLOC_MMAP_THRESHOLD_": "131072"]) == nil)
    }

    @Test func glibcAcceptsTheCap() {
        let outcome = AllocatorArenas.limit(toPerCore: 8)  // glibc's own default: changes nothing for the tests
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] != nil {
            #expect(outcome == .chosenByEnvironment)
        } else {
            #expect(outcome == .limited(arenas: 8 * ProcessInfo.processInfo.activeProcessorCount))
        }
    }
}
