import VoiceEngine
import VoiceLV2

/// The LV2 host a command passes to its preset library and its engine: the plugins installed on
/// the system (LV2_PATH, else lilv's default folders), read when a preset first names one.
///
/// - Realtime: never; main thread, at the start of a command.
enum LV2Hosting {
    /// Live runs give plugins' scheduled work (LV2 worker) to a thread; offline runs do it at
    /// once, so results never depend on a thread's timing.
    static func host(live: Bool) -> any PluginHost {
        LV2PluginHost(worker: live ? .threaded : .synchronous)
    }
}
