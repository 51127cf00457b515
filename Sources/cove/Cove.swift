import ArgumentParser
import CoveCore

@main
struct Cove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cove",
        abstract: "Cove: a Brightcove-style video player SDK on GStreamer — play, probe and serve media from the command line.",
        version: PlayerSDKManager.version,
        subcommands: [PlayCommand.self, ProbeCommand.self, DemoCommand.self, FetchCommand.self, VTTCommand.self, VMAPCommand.self, ThumbnailCommand.self, ServeCommand.self, FixturesCommand.self, ServeMediaCommand.self]
    )
}
