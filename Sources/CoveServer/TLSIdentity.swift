import Foundation

/// A certificate chain and private key (PEM) for serving HTTPS from `MediaServer`.
public struct TLSIdentity: Sendable, Hashable {
    public let certificateChainPEM: String
    public let privateKeyPEM: String

    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// A fresh self-signed P-256 certificate for `127.0.0.1` and `localhost`, valid for two days,
    /// made with the `openssl` command. Clients trust it by adding `certificateChainPEM` as their
    /// only trust root (`AsyncHTTPClientTransport(trustRoots:)`), so certificate checks stay on.
    public static func selfSigned(commonName: String = "127.0.0.1") async throws -> TLSIdentity {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cove-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("key.pem")
        let certificate = dir.appendingPathComponent("cert.pem")
        let result = try await ProcessRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=\(commonName)", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", key.path, "-out", certificate.path,
            ])
        guard result.status == 0 else {
            throw FixtureError(
                description:
                    "openssl could not make a self-signed certificate (exit \(result.status)): \(result.errorOutput.suffix(400)). Install it with `make deps` (package openssl)."
            )
        }
        return TLSIdentity(
            certificateChainPEM: try String(contentsOf: certificate, encoding: .utf8),
            privateKeyPEM: try String(contentsOf: key, encoding: .utf8)
        )
    }
}
