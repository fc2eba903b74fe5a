import Foundation
import Glibc

/// A UDP socket for OSC: bound to one address, receiving with a timeout that `wake()` cuts
/// short (a pipe polled beside the socket), sending datagrams to any peer.
///
/// - Realtime: never. `receive` on one thread (the surface's); `send` and `wake` from any.
final class OSCSocket: @unchecked Sendable {
    private let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// The address bound, as `host:port` (the port the system chose when 0 was asked).
    let boundAddress: OSCPeer

    /// Binds `host:port` (a name or numeric IPv4/IPv6 address; port 0 picks a free port).
    /// Throws a message naming the address when it cannot.
    init(host: String, port: Int) throws(OSCSocketError) {
        guard (0...65535).contains(port) else { throw OSCSocketError("port \(port) is not 0...65535") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw OSCSocketError("cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let s = socket(first.pointee.ai_family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw OSCSocketError("cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        guard bind(s, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(s)
            throw OSCSocketError("cannot listen on \(host):\(port) (UDP): \(reason)")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) }
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(s)
            throw OSCSocketError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fd = s
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        boundAddress = OSCPeer(bound, length: length)
    }

    deinit {
        close(fd)
        close(wakeRead)
        close(wakeWrite)
    }

    /// One datagram and who sent it; nil when `timeout` seconds passed or `wake()` was called.
    func receive(timeout: Double) -> (bytes: [UInt8], from: OSCPeer)? {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, Int32(max(0, min(timeout, 60)) * 1000))
        guard ready > 0 else { return nil }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &drain, drain.count) > 0 {}
        }
        guard fds[0].revents & Int16(POLLIN) != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var source = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let n = withUnsafeMutablePointer(to: &source) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT), $0, &length)
            }
        }
        guard n >= 0 else { return nil }
        return (Array(buffer.prefix(n)), OSCPeer(source, length: length))
    }

    /// Sends one datagram; false when the system refused it (the peer's port closed, …).
    @discardableResult
    func send(_ bytes: [UInt8], to peer: OSCPeer) -> Bool {
        var address = peer.address
        let n = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, peer.length)
            }
        }
        return n == bytes.count
    }

    /// Ends a `receive` waiting now (or the next one) early.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}

/// Why the socket could not be opened, in words.
struct OSCSocketError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A UDP peer's address.
///
/// - Realtime: never; any thread.
public struct OSCPeer: Sendable, Hashable, CustomStringConvertible {
    var address: sockaddr_storage
    var length: socklen_t

    init(_ address: sockaddr_storage, length: socklen_t) {
        self.address = address
        self.length = length
    }

    /// The numeric host (`127.0.0.1`, `::1`).
    public var host: String {
        var a = address
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withUnsafePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        return status == 0
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    public var port: Int {
        var a = address
        return withUnsafePointer(to: &a) { p in
            if p.pointee.ss_family == sa_family_t(AF_INET6) {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }

    /// The same host at `port` (1...65535): where a client that named a reply port hears back.
    public func withPort(_ port: Int) -> OSCPeer {
        var copy = self
        withUnsafeMutablePointer(to: &copy.address) { p in
            if p.pointee.ss_family == sa_family_t(AF_INET6) {
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_port = UInt16(port).bigEndian
                }
            } else {
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = UInt16(port).bigEndian }
            }
        }
        return copy
    }

    /// True for 127.0.0.0/8 and ::1: only programs on this machine can reach it.
    public var isLoopback: Bool {
        var a = address
        return withUnsafePointer(to: &a) { p in
            if p.pointee.ss_family == sa_family_t(AF_INET6) {
                return p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { six in
                    withUnsafeBytes(of: six.pointee.sin6_addr) { bytes in
                        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
                    }
                }
            }
            return p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
            }
        }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public static func == (a: OSCPeer, b: OSCPeer) -> Bool { a.host == b.host && a.port == b.port }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
    }
}

extension OSCPeer {
    /// The first UDP address of `host:port`; nil when the name does not resolve.
    static func resolve(host: String, port: Int) -> OSCPeer? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(
                from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return OSCPeer(storage, length: first.pointee.ai_addrlen)
    }
}
