import Foundation
import Testing

/// What the shipped command is made of, read from the build's own link map.
@Suite("cove's link map")
struct LinkTests {
    /// `cove` links the embedded servers (CoveServer) but no module of the test kit: what ships is what
    /// an app would ship, and a test helper cannot creep into it.
    @Test func theShippedCommandLinksNoTestModule() throws {
        let list = CLITests.binary.deletingLastPathComponent().appendingPathComponent("cove.product/Objects.LinkFileList")
        let objects = try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(objects.contains { $0.contains("/CoveServer.build/") }, "the link map names the embedded servers: \(list.path)")
        let testModules = Set(objects.compactMap { path in path.split(separator: "/").first { $0.hasPrefix("CoveTest") && $0.hasSuffix(".build") } })
        #expect(testModules.isEmpty, "cove links \(testModules.sorted())")
    }
}
