import Foundation
import Glibc

/// A bare TCP client for the panel's tests: it sends exactly the bytes a test writes (any Host,
/// Origin, frame) and reads what comes back, so nothing between the test and the server fixes
/// a request up.
///
/// - Test thread only.
final class RawClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Long: the server answers on Swift's cooperative pool, which other suites' blocking tests
        // may hold for a while when the whole suite runs; slow then, never failed.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads until `count` bytes are buffered or the peer closes or 60 s pass; false when fewer came.
    private func fill(_ count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while buffer.count < count {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return false }
            buffer += chunk[0..<n]
        }
        return true
    }

    /// True when the server closes the connection within `seconds` (whatever it sent before is
    /// read and dropped); false when it is still open then.
    func closedByServer(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { continue }
            return n == 0 || errno == ECONNRESET
        }
    }

    /// Everything the server sends until it closes the connection, `deadline` passes or what came
    /// satisfies `enough`, and whether it closed (a reset counts); for the fuzzers, which judge
    /// what came back.
    func untilClosed(
        by deadline: ContinuousClock.Instant, orWhen enough: ([UInt8]) -> Bool = { _ in false }
    ) -> (bytes: [UInt8], closed: Bool) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !enough(buffer) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (buffer, false) }
            let micros = max(
                1_000, left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000)
            var timeout = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: Int(micros % 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
            } else if n == 0 || errno == ECONNRESET {
                return (buffer, true)
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (buffer, true)
            }
        }
        return (buffer, false)
    }

    /// Ends the client's side of the connection (the server reads end of file), keeping its own.
    func shutDownWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// The HTTP response head (status line and headers) and status code.
    func responseHead() -> (status: Int, head: String) {
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                return (status, head)
            }
            if !fill(buffer.count + 1) { return (0, String(decoding: buffer, as: UTF8.self)) }
        }
    }

    /// A whole HTTP request's answer: status, head and body (read to the end).
    static func get(port: UInt16, _ request: String) throws -> (status: Int, head: String, body: String) {
        let client = try RawClient(port: port)
        client.send(request)
        let (status, head) = client.responseHead()
        _ = client.fill(Int.max)
        return (status, head, String(decoding: client.buffer, as: UTF8.self))
    }

    /// One server frame: its opcode and payload; nil when the connection ended.
    func frame() -> (opcode: UInt8, payload: [UInt8])? {
        guard fill(2) else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard fill(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard fill(10) else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard fill(header + length) else { return nil }
        let payload = Array(buffer[header..<(header + length)])
        buffer.removeSubrange(0..<(header + length))
        return (opcode, payload)
    }

    /// The next text frame as a JSON object, skipping nothing: nil if the next frame is not text.
    func message() -> [String: Any]? {
        guard let (opcode, payload) = frame(), opcode == 1 else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    }

    /// The next message of `type` ("reply", "setup", "meters"), skipping others; nil on close.
    func message(ofType type: String) -> [String: Any]? {
        for _ in 0..<500 {
            guard let (opcode, payload) = frame() else { return nil }
            if opcode == 8 {
                return ["type": "close", "code": payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 0]
            }
            guard opcode == 1, let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
            else { continue }
            if object["type"] as? String == type { return object }
        }
        return nil
    }

    /// A masked client frame (RFC 6455: clients mask), `fin` false for a fragment.
    static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }
}
