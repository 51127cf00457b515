import ArgumentParser
import CoveCore
import CoveGStreamer

/// The process entry: the allocator is set up before any thread allocates, then the commands run.
@main
enum CoveMain {
    static func main() async {
        // A player's many threads would each keep a malloc arena of freed memory; two per core bound
        // that (see `AllocatorArenas`). MALLOC_ARENA_MAX in the environment still wins.
        AllocatorArenas.limit(toPerCore: 2)
        // Media segments are mapped blocks of their own, returned to the system once pushed.
        AllocatorArenas.mapLargeBlocks()
        await Cove.main()
    }
}

struct Cove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cove",
        abstract: "Cove: a Brightcove-style video player SDK on GStreamer — play, probe and serve media from the command line.",
        version: PlayerSDKManager.version,
        subcommands: [
            PlayCommand.self, DownloadCommand.self, DownloadsCommand.self, ProbeCommand.self, DemoCommand.self, FetchCommand.self, VTTCommand.self,
            VMAPCommand.self, ThumbnailCommand.self, ServeCommand.self, FixturesCommand.self, ServeMediaCommand.self, AnalyticsCommand.self,
            MonitorCommand.self, ManifestCommand.self,
        ]
    )
}
