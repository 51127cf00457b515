import Testing

@testable import CoveCore

/// What a session does once: Ready, the next video's preload, and FailedToPlayToEndTime per failure.
@Suite("Session milestones")
struct SessionMilestonesTests {
    @Test func eachMilestoneIsReachedOnce() {
        var milestones = SessionMilestones()
        #expect(!milestones.has(.readyReported))
        #expect(milestones.reach(.readyReported) == true)
        #expect(milestones.reach(.readyReported) == false, "once")
        #expect(milestones.has(.readyReported) && !milestones.has(.preloadStarted))
        #expect(milestones.reach(.preloadStarted) == true)
        #expect(milestones.reach(.preloadStarted) == false)
    }

    @Test func aRebuiltPipelineMakesALaterFailureReportableAgainButNotReady() {
        var milestones = SessionMilestones()
        _ = milestones.reach(.readyReported)
        _ = milestones.reach(.preloadStarted)
        #expect(milestones.reach(.failedToPlayToEndReported) == true)
        #expect(milestones.reach(.failedToPlayToEndReported) == false, "one report per failure")
        milestones.rebuiltPipelineLoaded()
        #expect(!milestones.has(.failedToPlayToEndReported))
        #expect(milestones.has(.readyReported) && milestones.has(.preloadStarted), "Ready and the preload stay done")
        #expect(milestones.reach(.failedToPlayToEndReported) == true)
    }
}
