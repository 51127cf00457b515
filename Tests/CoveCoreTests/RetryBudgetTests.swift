import Testing

@testable import CoveCore

/// A failure episode's attempts: back-off within the policy, probes after it, and when the episode ends.
@Suite("Retry budget")
struct RetryBudgetTests {
    static let network = PlaybackError(.networkUnreachable, "refused")
    static let policy = RetryPolicy(
        maximumAttempts: 2, initialDelay: .seconds(1), multiplier: 2, jitter: 0, automaticResume: .init(interval: .seconds(5), maximumAttempts: 2))

    @Test func attemptsBackOffUntilThePolicysMaximumThenProbesTakeOver() {
        var budget = RetryBudget()
        #expect(budget.handle(.failed(Self.network, policy: Self.policy, random: 0)) == .retry(attempt: 1, maximum: 2, delay: .seconds(1)))
        #expect(budget.isInEpisode)
        #expect(budget.handle(.failed(Self.network, policy: Self.policy, random: 0)) == .retry(attempt: 2, maximum: 2, delay: .seconds(2)))
        #expect(budget.handle(.failed(Self.network, policy: Self.policy, random: 0)) == nil, "used up")
        #expect(budget.handle(.gaveUp(Self.network, policy: Self.policy)) == .probe(attempt: 1, maximum: 2, interval: .seconds(5)))
        #expect(budget.handle(.gaveUp(Self.network, policy: Self.policy)) == .probe(attempt: 2, maximum: 2, interval: .seconds(5)))
        #expect(budget.handle(.gaveUp(Self.network, policy: Self.policy)) == nil, "probes have their own limit")
    }

    @Test func clientErrorsAndPoliciesWithoutRetriesGiveUpAtOnce() {
        var budget = RetryBudget()
        let forbidden = PlaybackError(.httpStatus, "forbidden", httpStatus: 403)
        #expect(budget.handle(.failed(forbidden, policy: Self.policy, random: 0)) == nil)
        #expect(budget.handle(.gaveUp(forbidden, policy: Self.policy)) == nil)
        #expect(budget.handle(.failed(Self.network, policy: .none, random: 0)) == nil)
        #expect(budget.handle(.gaveUp(Self.network, policy: .none)) == nil)
        #expect(!budget.isInEpisode)
    }

    @Test func theEpisodeEndsOnlyOncePlaybackGetsWellPastTheReload() {
        var budget = RetryBudget()
        _ = budget.handle(.failed(Self.network, policy: Self.policy, random: 0))
        _ = budget.handle(.gaveUp(Self.network, policy: Self.policy))
        _ = budget.handle(.loaded(at: .seconds(10)))
        #expect(budget.automaticResumes == 0 && budget.resetPosition == .seconds(15))
        _ = budget.handle(.progressed(to: .seconds(14.9)))
        #expect(budget.isInEpisode, "not far enough yet")
        _ = budget.handle(.progressed(to: .seconds(15)))
        #expect(!budget.isInEpisode && budget.resetPosition == nil)
        #expect(
            budget.handle(.failed(Self.network, policy: Self.policy, random: 0)) == .retry(attempt: 1, maximum: 2, delay: .seconds(1)),
            "a new episode starts at 1")
    }
}
