//
//  HTTPLimits.swift
//  FlyingFox
//
//  voicerack patch (see PATCHES.md): bounds on what one client may send and hold, each checked
//  before the bytes it guards are read, so a hostile client costs bounded memory, time and
//  descriptors. Distributed under the same MIT license as FlyingFox.
//

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds on requests, connections and WebSocket frames.
public struct HTTPLimits: Sendable {
    /// The longest request line (method, target, version), bytes; longer gets 414.
    public var maxRequestLineBytes: Int
    /// The longest header line, bytes; longer gets 431.
    public var maxHeaderLineBytes: Int
    /// The most header lines in one request; more gets 431.
    public var maxHeaderCount: Int
    /// The most header bytes in one request, all lines together; more gets 431.
    public var maxHeaderBytes: Int
    /// The largest request body, bytes (Content-Length or chunked); larger gets 413.
    public var maxBodyBytes: Int
    /// Seconds a connection may take to send a whole request head, counted from when the server
    /// starts waiting for it (also how long an idle keep-alive connection is kept); then it is
    /// closed (408 if anything had arrived).
    public var headTimeout: TimeInterval
    /// The most connections open at once. A connection past it makes room by closing the
    /// connection that has waited longest for its request head; when none waits, the new one is
    /// closed. Keep it well below the descriptor limit, so accept() never fails for want of one.
    public var maxConnections: Int
    /// The largest WebSocket frame payload a client may send, bytes, checked from the frame
    /// header before the payload is read; larger closes the connection.
    public var maxWebSocketFrameBytes: Int

    public init(
        maxRequestLineBytes: Int = 8_192,
        maxHeaderLineBytes: Int = 8_192,
        maxHeaderCount: Int = 100,
        maxHeaderBytes: Int = 65_536,
        maxBodyBytes: Int = 1_048_576,
        headTimeout: TimeInterval = 10,
        maxConnections: Int = HTTPLimits.defaultMaxConnections(),
        maxWebSocketFrameBytes: Int = 1_048_576
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderLineBytes = maxHeaderLineBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.headTimeout = headTimeout
        self.maxConnections = maxConnections
        self.maxWebSocketFrameBytes = maxWebSocketFrameBytes
    }

    /// A quarter of the process's descriptor limit, between 16 and 512: the rest stays for
    /// the program itself, and for connections the kernel queues meanwhile.
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        #if os(Linux)
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        #else
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return 64 }
        #endif
        let soft = limit.rlim_cur > rlim_t(Int32.max) ? 4_096 : Int(limit.rlim_cur)
        return min(512, max(16, soft / 4))
    }
}
