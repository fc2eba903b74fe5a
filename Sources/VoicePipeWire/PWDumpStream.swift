import Foundation

/// `pw-dump`'s output as one list of objects. It is not always one JSON document: objects that
/// come or go while it dumps (and, with `--monitor`, every change after the dump) follow the
/// first array as further arrays, each object whole (an object that went is
/// `{"id": N, "info": null}`), so the arrays are split, parsed and applied in turn.
///
/// - Realtime: never; the thread that reads pw-dump (the main thread for a one-off dump, the
///   watch's reader thread for `--monitor`).
public struct PWDumpStream {
    private var order: [Int] = []
    private var byID: [Int: [String: Any]] = [:]
    private var unnamed: [[String: Any]] = []

    /// The objects now, in their first order.
    public var objects: [[String: Any]] { order.compactMap { byID[$0] } + unnamed }

    /// Applies one document (a JSON array of objects); false when it is not one.
    public mutating func apply(_ document: Data) -> Bool {
        guard let array = (try? JSONSerialization.jsonObject(with: document)) as? [[String: Any]] else {
            return false
        }
        for object in array {
            guard let id = object["id"] as? Int else {
                unnamed.append(object)
                continue
            }
            // An update without "info" (a metadata change) replaces the object as a whole too.
            if object.keys.contains("info"), object["info"] is NSNull {
                byID[id] = nil
                order.removeAll { $0 == id }
            } else {
                if byID[id] == nil { order.append(id) }
                byID[id] = object
            }
        }
        return true
    }

    /// The objects a whole output leaves, in their first order; nil when some part is not a
    /// JSON array of objects.
    public static func objects(_ data: Data) -> [[String: Any]]? {
        var stream = PWDumpStream()
        var splitter = Splitter()
        let documents = splitter.feed(data)
        guard !documents.isEmpty else { return nil }
        for document in documents where !stream.apply(document) { return nil }
        return stream.objects
    }

    /// The top-level JSON values in `data`, by bracket depth outside strings.
    public static func split(_ data: Data) -> [Data] {
        var splitter = Splitter()
        return splitter.feed(data)
    }

    /// Cuts a byte stream into its top-level JSON values as the bytes arrive: a value that a
    /// read cut in two is kept until its end comes.
    public struct Splitter {
        private var depth = 0
        private var inString = false
        private var escaped = false
        private var current = Data()

        /// The values that `chunk` completes.
        public mutating func feed(_ chunk: Data) -> [Data] {
            var documents: [Data] = []
            var start: Int? = depth > 0 ? chunk.startIndex : nil
            for index in chunk.indices {
                let byte = chunk[index]
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
                    guard depth > 0 else { continue }
                    depth -= 1
                    if depth == 0, let first = start {
                        documents.append(current + chunk[first...index])
                        current = Data()
                        start = nil
                    }
                default:
                    break
                }
            }
            if let first = start { current += chunk[first...] }
            return documents
        }
    }
}
