import Foundation
import VoiceCycle

/// What the main thread last saw of the gated takes and of freewheel, to log each change once.
///
/// - Realtime: never; main thread.
struct TakeWatch {
    /// The open take was announced.
    var announced = false
    /// Freewheel runs seen so far, and whether the server was freewheeling at the last tick.
    var freewheelStarts = 0
    var freewheeling = false
}

/// `--record-on-freewheel` and `--record-on-transport`: the recordings are armed (files open)
/// and the process thread feeds them only while the server freewheels or the transport rolls
/// (`RecordingGate`). When a run or roll ends, the take is finalised here and the next take's
/// files (`NAME-take2.wav`, ...) are armed for the next one.
///
/// - Realtime: never; main thread.
extension LiveLoop {
    /// What the gate waits for, for messages.
    private var gateWords: String {
        request.recordingGate == .freewheel ? "the JACK server freewheels" : "the JACK transport rolls"
    }

    /// Sets the gate before the driver starts; the files get a time reference.
    func prepareGate() {
        host.setRecordingGate(request.recordingGate)
        recorder.stampsTimeReference = request.recordingGate != .always
    }

    /// The log line after the files were opened at start.
    var gateStartLine: String? {
        guard request.recordingGate != .always else { return nil }
        return "take \(restart.take) armed: recording while \(gateWords)"
    }

    /// Logs freewheel starting and ending; announces an open take; finalises a closed take and
    /// arms the next.
    func followTakes() {
        followFreewheel()
        guard request.recordingGate != .always, recorder.isRecording else { return }
        switch host.takeState {
        case .armed:
            return
        case .open:
            announceTake()
        case .closed:
            announceTake()
            for line in recorder.stop(detachingFrom: host) { out.log("take \(restart.take): " + line) }
            restart.take += 1
            takes.announced = false
            do {
                for line in try recorder.start(host, client: driver.clientName, take: restart.take) { out.log(line) }
                out.log("take \(restart.take) armed: recording while \(gateWords)")
            } catch {
                out.log("take \(restart.take) could not be armed: \(error.message)", level: .error)
            }
        }
    }

    private func announceTake() {
        guard !takes.announced else { return }
        takes.announced = true
        out.log("take \(restart.take): recording from transport frame \(host.takeFrame) (\(gateWords))")
    }

    /// Logs the start and end of each freewheel run (the statistics pause meanwhile).
    private func followFreewheel() {
        let status = driver.status()
        if status.freewheelStarts > takes.freewheelStarts, !takes.freewheeling {
            out.log("JACK is freewheeling: rendering faster than real time; xrun and overrun counts pause")
        }
        takes.freewheelStarts = status.freewheelStarts
        if takes.freewheeling, !status.freewheeling {
            out.log("JACK stopped freewheeling after \(status.freewheelCycles) freewheel cycles in all")
            let abandoned = host.freewheelWaitsAbandoned
            if abandoned > 0 {
                out.log(
                    "a freewheel cycle gave up waiting 5 s for a stuck recorder, stream or backing reader (\(abandoned) in all); the rest of that run dropped frames as in real time",
                    level: .warning)
            }
        }
        takes.freewheeling = status.freewheeling
    }
}
