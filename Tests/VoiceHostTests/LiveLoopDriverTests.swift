import Foundation
import Synchronization
import Testing
import VoiceControl
import VoiceCycle
import VoiceEngine
import VoiceJACK

@testable import VoiceHost

/// The live loop runs on any `LiveDriver`: here one that is no JACK client, which the loop
/// starts, controls, sees lose its server and replaces with the client `reopen` gives, whose
/// connections it restores.
@Suite("The live loop on a driver that is not JACK")
struct LiveLoopDriverTests {
    /// A live driver with no server behind it: it records what the loop asks of it.
    final class FakeDriver: LiveDriver, @unchecked Sendable {
        let sampleRate = 48_000
        let blockSize: Int
        let clientName: String
        var serverHasShutDown = false
        let shutdownReason: String? = "the test stopped it"
        let changedSampleRate: Int? = nil
        let portRegistrations = 0
        private(set) var started = 0
        private(set) var closed = 0
        private(set) var autoConnects = 0
        private(set) var restored: [PortConnection] = []
        var peersOfMic = ["system:capture_1"]

        init(name: String, blockSize: Int) {
            clientName = name
            self.blockSize = blockSize
        }

        func start(_ client: any DriverClient) throws(DriverError) { started += 1 }
        func stop() {}
        func status() -> DriverStatus {
            DriverStatus(
                xruns: 0, cpuLoad: 0,
                cycle: CycleFigures(
                    cycles: 0, overruns: 0, workOverruns: 0, worstMilliseconds: 0, worstPercentOfPeriod: 0,
                    worstWorkPercentOfPeriod: 0),
                framesMissed: 0)
        }
        func updateLatenciesIfNeeded() {}
        func echoPathLatency() -> Int? { nil }
        func autoConnect() -> [String] {
            autoConnects += 1
            return ["fake: connected mic_in"]
        }
        func close(timeout: Double) -> Bool {
            closed += 1
            return true
        }
        func closeAfterServerLoss(timeout: Double) -> Bool { close(timeout: timeout) }
        func hasPort(_ name: String) -> Bool { false }
        func peers(of name: String) -> [String] { [] }
        func link(_ source: String, _ destination: String) -> Int32 { 0 }
        func unlink(_ source: String, _ destination: String) -> Int32 { 0 }
        func connections() -> [PortConnection] {
            serverHasShutDown ? [] : peersOfMic.map { PortConnection(port: "mic_in", peer: $0, outgoing: false) }
        }
        func restore(_ connections: [PortConnection]) -> [String] {
            restored = connections
            return []
        }
    }

    @Test("start, a typed set, a server lost and back: the loop asks the driver, never JACK")
    func runsOnAnyLiveDriver() throws {
        var request = LiveRequest(
            options: JACKDriver.Options(name: "fake"), configuration: EngineConfiguration(), presetName: "raw")
        request.waitForServer = true
        request.logLevel = .critical
        let first = FakeDriver(name: "fake", blockSize: 256)
        let second = FakeDriver(name: "fake", blockSize: 512)
        let reopened = Mutex(0)
        let loop = try LiveLoop(
            request, driver: first,
            reopen: {
                reopened.withLock { $0 += 1 }
                return second
            }, recorder: LiveRecorder(request.recording), streaming: nil)
        try loop.start()
        #expect(first.started == 1 && first.autoConnects == 1)

        let reply = loop.execute(.set(key: "output.gain_db", value: .number(-6)))
        #expect(reply.succeeded, "\(reply.lines)")
        #expect(loop.host.liveConfiguration.outputGainDB == -6)

        try loop.tick()  // remembers the connections (--wait-for-server)
        first.serverHasShutDown = true
        try loop.tick()  // the server is gone: the take is finalised and the loop waits
        #expect(first.closed == 1 && loop.restart.waiting)
        try loop.tick()  // reopens: the new client runs the same engine at its period
        #expect(reopened.withLock { $0 } == 1 && !loop.restart.waiting)
        #expect(second.started == 1 && loop.driver === second)
        #expect(second.restored == [PortConnection(port: "mic_in", peer: "system:capture_1", outgoing: false)])
        #expect(loop.host.liveConfiguration.outputGainDB == -6, "the live change survives the new client")
        #expect(loop.restart.take == 2)
    }
}
