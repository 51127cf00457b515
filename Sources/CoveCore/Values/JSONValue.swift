import Foundation

/// A JSON value kept exactly as the Playback API (or any JSON source) sent it.
///
/// Raw fields are never `[String: Any]`: they are this typed tree, so they stay `Sendable`, `Hashable`
/// and printable, and unknown fields survive round trips.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// Integers that fit in `Int64` keep full precision (ids such as `57838016001`).
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var isNull: Bool { self == .null }

    /// Numbers as `Double` (integers converted), or nil for non-numbers.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// Numbers as `Int64` when exactly representable, or nil.
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }

    /// Element lookup for objects; nil for other kinds or missing keys.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// A JSON object: string keys to values. Key order is not significant (as in JSON itself).
public typealias JSONObject = [String: JSONValue]

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d):
            // JSON has no NaN/Infinity; encode them as null rather than failing the whole document.
            if d.isFinite { try container.encode(d) } else { try container.encodeNil() }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

/// Limits applied before any JSON is decoded, so hostile input fails fast with a clear error.
public struct JSONLimits: Sendable, Hashable {
    public var maxBytes: Int
    public var maxDepth: Int

    public init(maxBytes: Int = 8 << 20, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

/// Why bytes could not become a `JSONValue`.
public enum JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case tooDeep(limit: Int)
    case invalidUTF8
    case malformed(String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            return "JSON body is \(bytes) bytes, over the \(limit)-byte limit; the server sent far more than a catalog response"
        case .tooDeep(let limit):
            return "JSON nests deeper than \(limit) levels; refusing to decode it"
        case .invalidUTF8:
            return "JSON body is not valid UTF-8"
        case .malformed(let detail):
            return "JSON body is malformed: \(detail)"
        }
    }
}

extension JSONValue {
    /// Parses bytes into a JSON value: a pure function with size and depth limits (fuzz entry point).
    /// Strict RFC 8259 (see `JSONParser`): trailing commas, comments, lone surrogates, leading zeros and
    /// out-of-range numbers are errors that say where they are.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
        let array = Array(bytes)
        guard String(validating: array, as: UTF8.self) != nil else { throw .invalidUTF8 }
        var parser = JSONParser(bytes: array, maxDepth: limits.maxDepth)
        return try parser.parseDocument()
    }

    /// Serialises with sorted keys, for stable output.
    public func serialized(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
