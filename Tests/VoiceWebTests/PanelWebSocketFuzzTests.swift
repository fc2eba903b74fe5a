import Foundation
import Testing
import VoiceTestSupport
import VoiceWeb

/// Fuzz: after a valid upgrade with the token, mutated WebSocket frames (lengths, opcodes, masks,
/// reserved bits, fragments, oversize headers), then a close frame. Every socket ends within
/// `PanelFuzzRig.bound` of that close frame, or of end of file when a frame was left unfinished
/// (open longer: a hang), and nothing reaches the backend that the decoder's rules refuse.
@Suite(.serialized) struct PanelWebSocketFuzzTests {
    /// Requests the panel sends, as text.
    static let messages = [
        #"{"op":"set","key":"output.gain_db","value":"-6","id":1}"#, #"{"op":"record","start":true}"#,
        #"{"op":"record","start":true,"taps":["voice","mic"]}"#, #"{"op":"mute","on":false}"#, #"{"op":"pause"}"#,
        #"{"op":"load","preset":"raw"}"#, #"{"op":"save","name":"mine"}"#, #"{"op":"unmute"}"#,
    ]

    /// Frame pieces that break framing rules: opcodes, reserved bits, lengths in each encoding,
    /// no mask, control frames too long or fragmented, continuation without a start, bad closes.
    static let fragments: [[UInt8]] =
        [
            [0x81], [0x01], [0x80], [0x00], [0x89], [0x8A], [0x88], [0x09], [0xC1], [0xB1], [0x8F], [0x83],
            [0xFE, 0x00, 0x10], [0xFF] + [UInt8](repeating: 0xFF, count: 8), [0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0],
            [0x7E], [0x7F], [0x80 | 125], [0x05], [0x12, 0x34, 0x56, 0x78], [UInt8](repeating: 0x61, count: 200),
            [0xC3, 0x28], [0],
        ] + [
            RawClient.frame(opcode: 9, [UInt8](repeating: 1, count: 126)), RawClient.frame(opcode: 9, [], fin: false),
            RawClient.frame(opcode: 0, Array("x".utf8)), RawClient.frame(opcode: 8, [0x03, 0xE8, 0xC3, 0x28]),
            RawClient.frame(opcode: 8, [1]), RawClient.frame(opcode: 8, [0, 0]),
            RawClient.frame(opcode: 1, [0xC3, 0x28]),
            RawClient.frame(opcode: 2, [1, 2, 3]), RawClient.frame(opcode: 1, Array(#"{"op":"#.utf8), fin: false),
        ]

    /// 1–3 valid frames: a message whole or in fragments, a ping, a pong.
    static func validFrames(_ random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let message = Array(messages.randomElement(using: &random)!.utf8)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let cut = Int.random(in: 1..<message.count, using: &random)
                bytes += RawClient.frame(opcode: 1, Array(message[..<cut]), fin: false)
                bytes += RawClient.frame(opcode: 0, Array(message[cut...]))
            case 1: bytes += RawClient.frame(opcode: 9, Array("ping".utf8))
            case 2: bytes += RawClient.frame(opcode: 10, [])
            default: bytes += RawClient.frame(opcode: 1, message)
            }
        }
        return bytes
    }

    @Test func mutatedFramesEndInTimeAndReachTheBackendOnlyValid() async throws {
        try await PanelServerTests.offPool {
            let rig = try PanelFuzzRig()
            defer { rig.server.stop() }
            let close = RawClient.frame(opcode: 8, [0x03, 0xE8])
            var random = SeededRandom(seed: FuzzTally.seed(35))
            var tally = FuzzTally("panel WebSocket framing")
            var invalid: [PanelRequest] = []
            try rig.run(&tally, budget: FuzzTally.budget(200), batch: PanelFuzzRig.socketBatch, &random) { random in
                let valid = Self.validFrames(&random)
                let bytes =
                    Int.random(in: 0..<5, using: &random) == 0
                    ? valid : ByteMutation.mutated(valid, rounds: 3, fragments: Self.fragments, &random)
                guard let client = try rig.upgradedClient() else {
                    return (try RawClient(port: rig.port), "no upgrade")
                }
                client.send(bytes)
                client.send(close)
                return (client, PanelFuzzRig.described(bytes))
            } judge: { client, input, deadline in
                if input == "no upgrade" { return .crash("the valid upgrade was refused") }
                // A frame left unfinished takes the close frame as its payload: end of file ends it.
                var end = client.untilClosed(by: ContinuousClock.now + .milliseconds(300)) { Self.closeCode($0) != nil }
                if end.closed || Self.closeCode(end.bytes) != nil {
                    return Self.closeCode(end.bytes) == 1000 ? .accepted : .cleanError
                }
                client.shutDownWriting()
                end = client.untilClosed(by: max(deadline, ContinuousClock.now + PanelFuzzRig.bound))
                guard end.closed else { return .hang("\(input): open after its close frame and end of file") }
                return .cleanError
            }
            invalid += rig.backend.performed.withLock { $0 }.filter { !Self.isValid($0) }
            let pageAnswers = rig.pageAnswers()
            print(tally.summary)
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
            #expect(invalid.isEmpty, "reached the backend: \(invalid.prefix(3))")
            #expect(pageAnswers, "the page did not answer within 2 s after the fuzz")
        }
    }

    /// Whether `request` keeps the decoder's rules: text fields of 1 to 200 bytes without control
    /// characters, preset names, a few tap names.
    static func isValid(_ request: PanelRequest) -> Bool {
        func text(_ value: String) -> Bool {
            (1...PanelRequest.maximumText).contains(value.utf8.count)
                && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        }
        switch request {
        case .set(let key, .word(let value)): return text(key) && text(value)
        case .set: return false  // the page's values are words
        case .loadPreset(let name), .savePreset(let name): return PanelRequest.isName(name)
        case .recordTaps(let taps):
            return (1...PanelRequest.maximumTaps).contains(taps.count)
                && taps.allSatisfy { (1...16).contains($0.utf8.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }
        default: return true
        }
    }

    /// The code of the first close frame the server sent in `bytes` (0 without a code); nil
    /// before one has come whole.
    static func closeCode(_ bytes: [UInt8]) -> Int? {
        var at = 0
        while at + 2 <= bytes.count {
            var length = Int(bytes[at + 1] & 0x7F)
            var header = 2
            if length == 126 {
                guard at + 4 <= bytes.count else { return nil }
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                header = 4
            } else if length == 127 {
                guard at + 10 <= bytes.count else { return nil }
                length = bytes[(at + 2)..<(at + 10)].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            guard at + header + length <= bytes.count else { return nil }
            if bytes[at] & 0x0F == 8 {
                return length >= 2 ? Int(bytes[at + header]) << 8 | Int(bytes[at + header + 1]) : 0
            }
            at += header + length
        }
        return nil
    }
}
