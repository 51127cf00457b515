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
        // A command that plays starts loading GStreamer and its decoders now, on a thread of its own,
        // while the process parses its arguments and builds its controller (see `EarlyWarmUp`).
        if let command = CommandLine.arguments.dropFirst().first, EarlyWarmUp.commands.contains(command) { EarlyWarmUp.start() }
        await Cove.main()
    }
}

/// GStreamer's initialisation and its playback plugins (libav above all, ~70 ms of ~85), loaded from the
/// first moment of a command that plays, while the arguments, the controller and its pipeline are set
/// up. The first request still waits for them (the engine's streaming readiness): a request that went
/// out first would wait for the decoders at its first segment, and the time from the first request to
/// the first frame is what a viewer on a slow link feels.
enum EarlyWarmUp {
    static let commands: Set<String> = ["play", "probe", "demo", "monitor"]
    private static let task = Task.detached { try? await GStreamerMediaEngine().warmUp() }

    static func start() { _ = task }
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
