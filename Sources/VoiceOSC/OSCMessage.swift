import CLo
import Foundation
import VoiceControl

/// One OSC message as plain Swift values, encoded and decoded by liblo.
///
/// - Realtime: never; any thread.
public struct OSCMessage: Sendable, Equatable {
    public var path: String
    public var arguments: [OSCValue]

    public init(_ path: String, _ arguments: [OSCValue] = []) {
        self.path = path
        self.arguments = arguments
    }

    /// The OSC type tags of the arguments, without the leading comma (`sf`).
    public var typeTags: String { String(arguments.map(\.tag)) }

    /// Decodes one datagram; the error says what is wrong with it in words.
    public init(decoding data: [UInt8]) throws(OSCDecodeError) {
        guard !data.isEmpty else { throw OSCDecodeError("an empty packet") }
        if data.starts(with: Array("#bundle".utf8)) {
            throw OSCDecodeError("an OSC bundle; send plain messages (bundles are not supported)")
        }
        var bytes = data
        var result: Int32 = 0
        let decoded = bytes.withUnsafeMutableBytes { raw in
            lo_message_deserialise(raw.baseAddress, raw.count, &result)
        }
        guard let message = decoded, result == 0 else {
            throw OSCDecodeError("not an OSC message (\(Self.reason(result)))")
        }
        defer { lo_message_free(message) }
        let path = bytes.withUnsafeMutableBytes { raw in lo_get_path(raw.baseAddress, raw.count) }
        guard let path else { throw OSCDecodeError("not an OSC message (no address)") }
        self.path = String(cString: path)
        let count = Int(lo_message_get_argc(message))
        let types = lo_message_get_types(message).map { String(cString: $0) } ?? ""
        let argv = lo_message_get_argv(message)
        var arguments: [OSCValue] = []
        for (i, tag) in types.unicodeScalars.prefix(count).enumerated() {
            // T, F and N carry no data: liblo gives them no argument pointer.
            arguments.append(OSCValue(tag: Character(tag), argv?[i]))
        }
        self.arguments = arguments
    }

    /// The message as an OSC datagram; nil when liblo cannot encode it (a string with a NUL).
    public func encoded() -> [UInt8]? {
        guard let message = lo_message_new() else { return nil }
        defer { lo_message_free(message) }
        for argument in arguments {
            let status: Int32
            switch argument {
            case .int(let v): status = lo_message_add_int32(message, v)
            case .float(let v): status = lo_message_add_float(message, v)
            case .double(let v): status = lo_message_add_double(message, v)
            case .string(let v):
                guard !v.utf8.contains(0) else { return nil }
                status = lo_message_add_string(message, v)
            case .true: status = lo_message_add_true(message)
            case .false: status = lo_message_add_false(message)
            case .nil: status = lo_message_add_nil(message)
            case .unsupported: return nil
            }
            guard status == 0 else { return nil }
        }
        let length = lo_message_length(message, path)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        var size = length
        let written = bytes.withUnsafeMutableBytes { raw in lo_message_serialise(message, path, raw.baseAddress, &size)
        }
        return written == nil ? nil : Array(bytes.prefix(size))
    }

    /// liblo's decode errors (`lo_errors.h`) in words.
    private static func reason(_ code: Int32) -> String {
        switch abs(code) {
        case 9901, 9908: "its address is missing or does not start with '/'"
        case 9902, 9909: "its type tags are missing or do not start with ','"
        case 9910: "an argument has an unknown type tag"
        case 9911: "its length does not match its contents"
        case 9912: "an argument is not valid"
        case 9913: "a string is not terminated"
        case 9914: "a string is not padded to 4 bytes"
        default: "liblo error \(code)"
        }
    }
}

/// Why a datagram is not an OSC message this program can read.
public struct OSCDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// One OSC argument.
public enum OSCValue: Sendable, Equatable {
    case int(Int32)
    case float(Float)
    case double(Double)
    case string(String)
    case `true`
    case `false`
    case `nil`
    /// A type this program does not read (blob, MIDI, time tag, 64-bit integer, …): its tag.
    case unsupported(Character)

    /// The OSC type tag.
    var tag: Character {
        switch self {
        case .int: "i"
        case .float: "f"
        case .double: "d"
        case .string: "s"
        case .true: "T"
        case .false: "F"
        case .nil: "N"
        case .unsupported(let tag): tag
        }
    }

    init(tag: Character, _ argument: UnsafeMutablePointer<lo_arg>?) {
        switch (tag, argument) {
        case ("i", let a?): self = .int(a.pointee.i)
        case ("f", let a?): self = .float(a.pointee.f)
        case ("d", let a?): self = .double(a.pointee.d)
        case ("h", let a?): self = .double(Double(a.pointee.h))
        case ("s", let a?), ("S", let a?):
            self = .string(String(cString: UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self)))
        case ("T", _): self = .true
        case ("F", _): self = .false
        case ("N", _): self = .nil
        default: self = .unsupported(tag)
        }
    }

    /// The value as text, as a preset would write it (`-6`, `true`, `processed`); nil for a
    /// value that has no text form (nil, blobs).
    public var text: String? {
        switch self {
        case .int(let v): String(v)
        case .float(let v): v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
        case .double(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .string(let v): v
        case .true: "true"
        case .false: "false"
        case .nil, .unsupported: nil
        }
    }

    /// The value as a `set` takes it: numbers and switches as they were typed, strings as words;
    /// nil for a value that has none (nil, blobs).
    public var liveValue: LiveValue? {
        switch self {
        case .int, .float, .double: number.map(LiveValue.number)
        case .string(let v): .word(v)
        case .true: .boolean(true)
        case .false: .boolean(false)
        case .nil, .unsupported: nil
        }
    }

    /// The value as a number; nil for text and the rest.
    public var number: Double? {
        switch self {
        case .int(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }
}
