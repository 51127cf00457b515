import Foundation

/// Turns the timeline's SVG into a PNG with librsvg's `rsvg-convert` (Debian's librsvg2-bin): a
/// well-kept rasterizer, so the PNG is the same drawing as the report's chart rather than a second one.
public struct PNGRasterizer: Sendable {
    /// Where to look for `rsvg-convert` (the PATH's directories when nil).
    public let searchPath: [String]

    public init(searchPath: [String]? = nil) {
        self.searchPath = searchPath ?? (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The rasterizer's path, or nil when it is not installed.
    public var executable: String? {
        searchPath.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent("rsvg-convert").path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// PNG bytes of `svg`, `scale` times its size (2 for a sharp picture on a high-density screen).
    ///
    /// The drawing goes through files in a private temporary folder, not pipes: a pipe's end can be inherited
    /// by any process another thread starts meanwhile, and a long-lived one would hold the output open.
    public func png(fromSVG svg: String, scale: Double = 1) async throws(ReportError) -> Data {
        guard let executable else { throw .rasterizerMissing }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cove-plot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("timeline.svg")
        let output = folder.appendingPathComponent("timeline.png")
        let messages = folder.appendingPathComponent("messages.txt")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: input)
            try Data().write(to: messages)
        } catch {
            throw .unwritable(path: folder.path, reason: error.localizedDescription)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--format=png", "--zoom=\(max(scale, 0.1))", "--background-color=white", "--output=\(output.path)", input.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errorLog = try? FileHandle(forWritingTo: messages)
        process.standardError = errorLog ?? FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = {
            exited.continuation.yield($0.terminationStatus); exited.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            try? errorLog?.close()
            throw .rasterizerFailed(status: -1, message: "could not start \(executable): \(error.localizedDescription)")
        }
        try? errorLog?.close()
        var status: Int32 = -1
        for await value in exited.stream { status = value }
        let png = (try? Data(contentsOf: output)) ?? Data()
        guard status == 0, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            let message = (try? String(contentsOf: messages, encoding: .utf8)) ?? ""
            throw .rasterizerFailed(status: status, message: String(message.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)))
        }
        return png
    }
}
