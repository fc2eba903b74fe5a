import CLilv

// The one place where the process thread calls into an LV2 plugin. The compiler's @_noLocks check
// cannot see into the plugin, so each call is wrapped in _unsafePerformance with the reason:
// LV2 puts run(), work_response() and end_run() in the "Audio" threading class, and a plugin
// that declares lv2:hardRTCapable promises they neither allocate nor block (voicerack warns at
// load about plugins that do not). RealtimeSafetyTests checks a hard-RT plugin's cycle under
// RealtimeSanitizer, which also catches a plugin breaking that promise.

extension LV2ProcessState {
    /// Runs the plugin over `frames` samples of the buffers its ports are connected to.
    ///
    /// - Realtime: safe for hard-RT-capable plugins.
    @_noLocks
    func runPlugin(_ frames: Int) {
        // Realtime: run() is in LV2's Audio class; lilv_instance_run is an inline call through
        // the plugin's descriptor, with no allocation or locking of lilv's own.
        _unsafePerformance { lilv_instance_run(instance, UInt32(frames)) }
    }

    /// Connects the first audio input and output ports to the given buffers.
    ///
    /// - Realtime: safe (connect_port is in LV2's Audio threading class: it stores a pointer).
    @_noLocks
    func connectAudio(input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let inPort = UInt32(firstAudioInput)
        let outPort = UInt32(firstAudioOutput)
        // Realtime: connect_port only stores the pointer (LV2 Audio class).
        _unsafePerformance {
            lilv_instance_connect_port(instance, inPort, input)
            lilv_instance_connect_port(instance, outPort, output)
        }
    }

    /// Hands the worker's responses to the plugin, then signals the end of the run.
    ///
    /// - Realtime: safe (wait-free pops; the plugin's work_response and end_run are Audio class).
    @_noLocks
    func deliverWorkerResponses() {
        guard let worker, let interface = worker.pointee.interface else { return }
        let handle = worker.pointee.handle
        while let response = worker.pointee.responses.peek() {
            // Realtime: work_response is in LV2's Audio class; the bytes sit in a preallocated slot.
            _ = _unsafePerformance {
                interface.pointee.work_response?(handle, response.size, response.bytes)
            }
            worker.pointee.responses.release(response.slot)
        }
        // Realtime: end_run is in LV2's Audio class.
        _unsafePerformance { _ = interface.pointee.end_run?(handle) }
    }
}

/// Runs the plugin's `work` for one request: on the worker thread live, or in the caller's
/// thread offline (synchronous mode, where the caller is not a live process thread).
///
/// - Realtime: never live (work may block); offline it runs inside run(), by design.
@_noLocks
func performWork(
    _ channel: UnsafeMutablePointer<WorkerChannel>, _ size: UInt32, _ data: UnsafeRawPointer?
) -> LV2_Worker_Status {
    guard let interface = channel.pointee.interface, let work = interface.pointee.work else {
        return LV2_WORKER_ERR_UNKNOWN
    }
    // Not real-time: work() belongs to the worker's thread; this runs on the process thread only
    // in synchronous (offline) mode, where waiting is harmless and keeps results deterministic.
    return _unsafePerformance {
        work(channel.pointee.handle, respondToWork, UnsafeMutableRawPointer(channel), size, data)
    }
}
