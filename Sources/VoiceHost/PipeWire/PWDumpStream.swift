import Foundation

/// `pw-dump`'s output as one list of objects. It is not always one JSON document: objects that
/// come or go while it dumps follow the first array as further arrays (an object that went is
/// `{"id": N, "info": null}`), so the arrays are split, parsed and applied in turn.
///
/// - Realtime: never; main thread.
enum PWDumpStream {
    /// The objects the output leaves, in their first order; nil when some part is not a JSON
    /// array of objects.
    static func objects(_ data: Data) -> [[String: Any]]? {
        var order: [Int] = []
        var byID: [Int: [String: Any]] = [:]
        var unnamed: [[String: Any]] = []
        let documents = split(data)
        guard !documents.isEmpty else { return nil }
        for document in documents {
            guard let array = (try? JSONSerialization.jsonObject(with: document)) as? [[String: Any]] else {
                return nil
            }
            for object in array {
                guard let id = object["id"] as? Int else {
                    unnamed.append(object)
                    continue
                }
                // An update without "info" (a metadata change) replaces the object as a whole too.
                if object.keys.contains("info"), object["info"] is NSNull {
                    byID[id] = nil
                } else {
                    if byID[id] == nil { order.append(id) }
                    byID[id] = object
                }
            }
        }
        return order.compactMap { byID[$0] } + unnamed
    }

    /// The top-level JSON values in `data`, by bracket depth outside strings.
    static func split(_ data: Data) -> [Data] {
        var documents: [Data] = []
        var depth = 0
        var start: Int?
        var inString = false
        var escaped = false
        for (index, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 0 { start = index }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0, let first = start {
                    documents.append(data.subdata(in: (data.startIndex + first)..<(data.startIndex + index + 1)))
                    start = nil
                }
            default:
                break
            }
        }
        return documents
    }
}
