/// `EXT-X-DATERANGE` (RFC 8216 section 4.3.2.7).
enum DateRangeTag {
    static func read(_ reader: TagReader) throws(HLSParseError) -> DateRange {
        var attributes = try reader.attributes()
        let id = try attributes.requiredQuotedString("ID")
        let rangeClass = try attributes.quotedString("CLASS")
        let start = try attributes.requiredQuotedString("START-DATE")
        let end = try attributes.quotedString("END-DATE")
        let duration = try attributes.float("DURATION")
        let planned = try attributes.float("PLANNED-DURATION")
        var endOnNext = false
        if let value = try attributes.enumerated("END-ON-NEXT") {
            guard value == "YES" else {
                throw attributes.error(
                    .invalidAttribute, attribute: "END-ON-NEXT", detail: "END-ON-NEXT can only be YES.",
                    advice: "Write END-ON-NEXT=YES or leave it out."
                )
            }
            guard rangeClass != nil else {
                throw attributes.error(
                    .missingAttribute, attribute: "CLASS", detail: "END-ON-NEXT=YES needs a CLASS.",
                    advice: "Add CLASS=\"…\"; the range ends where the next range of the same class starts."
                )
            }
            guard duration == nil, end == nil else {
                throw attributes.error(
                    .invalidAttribute, attribute: duration != nil ? "DURATION" : "END-DATE",
                    detail: "END-ON-NEXT=YES cannot be combined with DURATION or END-DATE.",
                    advice: "Keep either END-ON-NEXT or an explicit end."
                )
            }
            endOnNext = true
        }
        let command = try attributes.hexadecimal("SCTE35-CMD")
        let out = try attributes.hexadecimal("SCTE35-OUT")
        let scteIn = try attributes.hexadecimal("SCTE35-IN")
        let client = attributes.take(where: { $0.hasPrefix("X-") })
        return DateRange(
            id: id, rangeClass: rangeClass, startDate: HLSDateTime(text: start), endDate: end.map(HLSDateTime.init(text:)),
            duration: duration, plannedDuration: planned, endOnNext: endOnNext,
            scte35Command: command, scte35Out: out, scte35In: scteIn,
            clientAttributes: client, otherAttributes: attributes.remaining
        )
    }
}
