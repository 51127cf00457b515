import CoveText
import Testing

/// RFC 3986 section 5.4: every example, normal and abnormal, against `http://a/b/c/d;p?q`.
@Suite("URI resolution")
struct URIResolutionTests {
    static let base = "http://a/b/c/d;p?q"

    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ])
    func normalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test(arguments: [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ])
    func abnormalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test func componentsAreSplitAsAppendixB() {
        let uri = URIReference("https://user@host:8443/p/a/t/h?query=1#frag")
        #expect(uri.scheme == "https")
        #expect(uri.authority == "user@host:8443")
        #expect(uri.path == "/p/a/t/h")
        #expect(uri.query == "query=1")
        #expect(uri.fragment == "frag")
        #expect(uri.description == "https://user@host:8443/p/a/t/h?query=1#frag")

        let empty = URIReference("")
        #expect(empty == URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: nil))
        // Not a valid scheme, so it is a path.
        #expect(URIReference("1a:b").scheme == nil)
        #expect(URIReference("file:///tmp/x").authority == "")
        #expect(URIReference("?#").query == "" && URIReference("?#").fragment == "")
    }

    @Test func otherBases() {
        #expect(URIReference.resolve("x.jpg", against: "http://host") == "http://host/x.jpg")
        #expect(URIReference.resolve("x.jpg", against: "file:///media/track.vtt") == "file:///media/x.jpg")
        #expect(URIReference.resolve("x.jpg", against: "media/track.vtt") == "media/x.jpg")
        #expect(URIReference.resolve("../x.jpg", against: "track.vtt") == "x.jpg")
        #expect(URIReference.resolve("x.jpg", against: nil) == "x.jpg")
        #expect(URIReference.resolve("caf%C3%A9/ü.jpg", against: "https://h/a/") == "https://h/a/caf%C3%A9/ü.jpg")
    }
}
