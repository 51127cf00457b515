import ArgumentParser
import CoveCore
import CoveNetworking
import Foundation

/// The bytes a parsing command reads: a file, or an http(s) URL's body (a non-2xx answer is an
/// error, not an empty document). One byte over `limit` is read, so the parser reports its own limit.
enum InputBytes {
    static func load(_ source: String, limit: Int) async throws -> [UInt8] {
        if source.hasPrefix("http://") || source.hasPrefix("https://"), let url = URL(string: source) {
            let response = try await AsyncHTTPClientTransport.shared.send(HTTPRequest(url: url, maxResponseBytes: limit + 1))
            guard (200..<300).contains(response.status) else {
                throw ValidationError("\(Redaction.redact(urlString: source)) answered HTTP \(response.status)")
            }
            return Array(response.body)
        }
        guard let handle = try? FileHandle(forReadingFrom: URL(fileURLWithPath: source)) else {
            throw ValidationError("'\(source)' is neither an http(s) URL nor a readable file")
        }
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: limit + 1) ?? Data())
    }
}
