// The VAST ad model encodes as JSON (any `Encoder`) so a tool can show everything the parser read
// without a hand-written list of fields that falls behind the model: `cove vmap --json` prints each
// ad this way. The structs synthesize their encoding (nil fields are left out); the values below
// choose a shape a reader of the JSON understands.

extension AdTime: Encodable {
    /// Seconds, as a number (the unit `cove vmap` prints every time in).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }
}

extension VASTOffset: Encodable {
    private enum CodingKeys: String, CodingKey {
        case seconds, percent
    }

    /// `{"seconds": 5}` or `{"percent": 25}`, so the two forms cannot be confused.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .time(let time): try container.encode(time, forKey: .seconds)
        case .percentage(let value): try container.encode(value, forKey: .percent)
        }
    }
}

extension VASTAdContent: Encodable {
    private enum CodingKeys: String, CodingKey {
        case inLine, wrapper
    }

    /// `{"inLine": {…}}` or `{"wrapper": {…}}`, named as the VAST elements are.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inLine(let inLine): try container.encode(inLine, forKey: .inLine)
        case .wrapper(let wrapper): try container.encode(wrapper, forKey: .wrapper)
        }
    }
}

extension RawXMLElement: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, attributes, xml
    }

    /// The name, the attributes and the element as XML; `text` and `innerXML` are in `xml` already.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(xml, forKey: .xml)
    }
}
