/// Replies as datagrams that always leave: a reply too large for one UDP datagram, or one that
/// cannot be encoded, becomes an `/error` that fits, so the contract "every message is answered"
/// holds for large answers too.
///
/// - Realtime: never; any thread.
extension OSCReplies {
    /// The largest OSC message sent, bytes: the payload of one IPv4 UDP datagram (65,535 less
    /// the IP and UDP headers). A larger `sendto` fails and the reply would vanish.
    static let maximumDatagram = 65_507

    /// The most of the answered address an error quotes back (a sender may send a long one).
    static let quotedAddress = 256

    /// `message` encoded; when it cannot be encoded or is larger than `maximumDatagram`, an
    /// `/error` answering `address` that says so and fits. Nil only for a push (no `address`)
    /// that does not fit.
    static func datagram(_ message: OSCMessage, answering address: String?) -> [UInt8]? {
        let encoded = message.encoded()
        if let encoded, encoded.count <= maximumDatagram { return encoded }
        guard let address else { return nil }
        let why =
            encoded.map {
                "reply too large: \($0.count) bytes, more than one datagram carries (\(maximumDatagram)); ask for less, e.g. one key with /voicerack/get, or a shorter address or key"
            } ?? "the reply cannot be sent as OSC (a string holds a NUL byte)"
        let quoted =
            address.utf8.count <= quotedAddress
            ? address : String(decoding: address.utf8.prefix(quotedAddress), as: UTF8.self) + "…"
        return error(quoted, why).encoded()
    }
}
