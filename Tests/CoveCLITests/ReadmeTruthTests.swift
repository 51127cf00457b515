import CoveCore
import CoveTesting
import Foundation
import Testing

/// Keeps README.md true to the package: its module table against `Package.swift` (read as text: nothing is
/// built or resolved), its `cove` row and command-line block against the built `cove --help`, the test suites
/// it lists against the test targets, and any count it gives ("N library products") against the real number.
@Suite("README truth")
struct ReadmeTruthTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ name: String) throws -> String { try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) }

    // MARK: Package.swift

    struct Target: Hashable {
        /// `target`, `executableTarget`, `systemLibrary`, `testTarget`, …
        let kind: String
        let name: String
        /// The folder it builds from (`path:`, else `Sources/<name>` or `Tests/<name>`).
        let path: String
    }

    struct Manifest {
        let libraries: Set<String>
        let targets: [Target]

        var testTargets: Set<String> { Set(targets.filter { $0.kind == "testTarget" }.map(\.name)) }
    }

    /// The products and targets `Package.swift` declares, from its text (comments removed first).
    static func manifest() throws -> Manifest {
        let text = try read("Package.swift").split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            // A comment starts at `//` outside a string; the manifest's strings with `//` are URLs after `url: "`.
            guard let comment = line.range(of: "//"), !line[..<comment.lowerBound].contains("\"") else { return line }
            return line[..<comment.lowerBound]
        }.joined(separator: "\n")
        let libraries = try Regex(#"\.library\(\s*name:\s*"([^"]+)""#)
        let declaration = try Regex(#"\.(target|executableTarget|systemLibrary|testTarget|binaryTarget|plugin|macro)\(\s*name:\s*"([^"]+)""#)
        let path = try Regex(#"path:\s*"([^"]+)""#)
        let found = text.matches(of: declaration)
        var targets: [Target] = []
        for (index, match) in found.enumerated() {
            let kind = String(match.output[1].substring ?? "")
            let name = String(match.output[2].substring ?? "")
            // The declaration's own arguments run to the next declaration (or the end of the list).
            let end = index + 1 < found.count ? found[index + 1].range.lowerBound : text.endIndex
            let explicit = text[match.range.upperBound..<end].firstMatch(of: path).flatMap { $0.output[1].substring.map(String.init) }
            targets.append(Target(kind: kind, name: name, path: explicit ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name))
        }
        return Manifest(libraries: Set(text.matches(of: libraries).compactMap { $0.output[1].substring.map(String.init) }), targets: targets)
    }

    // MARK: README.md

    struct Row {
        /// The names in its first cell (`CoveCore`; `CGStreamer` + `CCoveGst`; `Examples/`).
        let names: [String]
        /// Everything after the first cell.
        let text: String
    }

    /// The rows of the table under "## What is in the box" (header and separator left out).
    static func moduleTable(_ readme: String) throws -> [Row] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("## What is in the box") }, "the README has no module table heading")
        let table = lines[heading...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return table.dropFirst(2).map { line in
            let cells = line.dropFirst().split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            return Row(names: backticked(cells[0]), text: cells.count > 1 ? String(cells[1]) : "")
        }
    }

    static func backticked(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// A section's text: from its `## ` heading to the next.
    static func section(_ readme: String, _ heading: String) throws -> String {
        let start = try #require(readme.range(of: "\n## \(heading)"), "the README has no '## \(heading)' section")
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The subcommands the built `cove` has, from its `--help`.
    static func subcommands() async throws -> Set<String> {
        let help = try await CLITests.cove(["--help"])
        #expect(help.status == 0, "\(help.errorOutput)")
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("SUBCOMMANDS:") }, "cove --help lists no subcommands: \(help.output)")
        // "  name   abstract": two spaces, then the name; deeper lines continue an abstract.
        let entries = lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("  See ") }
        return Set(entries.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    // MARK: The checks

    /// Every library product and every non-test target under `Sources/` has a row (C shims may share one); the
    /// examples under `Examples/` have theirs; and every name in the first column is one the package declares.
    @Test func theModuleTableNamesEveryProductAndTargetAndNothingElse() throws {
        let manifest = try Self.manifest()
        #expect(manifest.libraries.count > 10 && manifest.targets.count > 20, "Package.swift was not read: \(manifest)")
        let rows = try Self.moduleTable(try Self.read("README.md"))
        let named = Set(rows.flatMap(\.names))
        let nonTest = manifest.targets.filter { $0.kind != "testTarget" }
        let underSources = Set(nonTest.filter { $0.path.hasPrefix("Sources/") }.map(\.name))
        let examples = nonTest.filter { $0.path.hasPrefix("Examples/") }
        for library in manifest.libraries.sorted() { #expect(named.contains(library), "the README's module table misses the library product \(library)") }
        for target in underSources.sorted() { #expect(named.contains(target), "the README's module table misses the target \(target)") }
        #expect(examples.isEmpty != named.contains("Examples/"), "an `Examples/` row exactly when Package.swift has example targets")
        let declared = Set(manifest.targets.map(\.name)).union(manifest.libraries).union(examples.isEmpty ? [] : ["Examples/"])
        for name in named.sorted() { #expect(declared.contains(name), "the README's module table names \(name), which Package.swift does not declare") }
        // A row that says it is no product is none.
        for row in rows where row.text.contains("(no product)") {
            for name in row.names { #expect(!manifest.libraries.contains(name), "the README says \(name) is no product, but Package.swift makes it one") }
        }
    }

    /// The `cove` row names exactly the subcommands `cove --help` lists; the command-line block uses no other.
    @Test func theCoveRowNamesEverySubcommandAndNothingElse() async throws {
        let real = try await Self.subcommands()
        #expect(real.count > 10 && real.contains("play"), "\(real)")
        let readme = try Self.read("README.md")
        let row = try #require(try Self.moduleTable(readme).first { $0.names == ["cove"] }, "the module table has no `cove` row")
        // `play`, `serve` (…), `analytics tail`: the first word of each backticked name; options (`--fast`) are not commands.
        let listed = Set(Self.backticked(row.text).filter { !$0.hasPrefix("-") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        for command in real.subtracting(listed).sorted() { Issue.record("the README's `cove` row misses `\(command)`") }
        for command in listed.subtracting(real).sorted() { Issue.record("the README's `cove` row names `\(command)`, which cove does not have") }
        let block = try Self.section(readme, "Command line")
        for line in block.split(separator: "\n") where line.hasPrefix("cove ") {
            let command = String(line.split(separator: " ")[1])
            #expect(real.contains(command), "the README's command line shows `cove \(command)`, which cove does not have")
        }
    }

    /// The Tests section names every test target `make test` runs, and no other.
    @Test func theTestsSectionNamesEveryTestTarget() throws {
        let manifest = try Self.manifest()
        let section = try Self.section(try Self.read("README.md"), "Tests")
        let named = Set(Self.backticked(section).filter { $0.hasPrefix("Cove") && $0.hasSuffix("Tests") })
        for target in manifest.testTargets.subtracting(named).sorted() { Issue.record("the README's Tests section misses \(target)") }
        for name in named.subtracting(manifest.testTargets).sorted() {
            Issue.record("the README's Tests section names \(name), which is no test target")
        }
    }

    /// "sixteen library products", "7 test suites", "fifteen subcommands": any such count is the real number.
    @Test func countsInTheReadmeAreTheRealNumbers() async throws {
        let manifest = try Self.manifest()
        let commands = try await Self.subcommands()
        let words = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
            "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four", "twenty-five",
            "twenty-six", "twenty-seven", "twenty-eight", "twenty-nine", "thirty",
        ]
        let actual: [String: Int] = [
            "library products": manifest.libraries.count, "test suites": manifest.testTargets.count, "test targets": manifest.testTargets.count,
            "subcommands": commands.count, "cove commands": commands.count,
        ]
        let readme = try Self.read("README.md").lowercased().replacingOccurrences(of: "\n", with: " ")
        let count = try Regex(#"\b([a-z]+(?:-[a-z]+)?|[0-9]+) (library products|test suites|test targets|subcommands|cove commands)\b"#)
        for match in readme.matches(of: count) {
            let number = String(match.output[1].substring ?? "")
            let noun = String(match.output[2].substring ?? "")
            guard let value = words.firstIndex(of: number).map({ $0 + 1 }) ?? Int(number), let expected = actual[noun] else { continue }
            #expect(value == expected, "the README says \(number) \(noun); there are \(expected)")
        }
    }
}
