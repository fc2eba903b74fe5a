import VoiceEngine
import VoiceLV2

/// Installs LV2 hosting for the engine and the presets (`PluginHosting`): the plugins installed
/// on the system (LV2_PATH, else lilv's default folders), read when a preset first names one.
///
/// - Realtime: never; main thread, at the start of a command.
enum LV2Hosting {
    /// Live runs give plugins' scheduled work (LV2 worker) to a thread; offline runs do it at
    /// once, so results never depend on a thread's timing.
    static func install(live: Bool) {
        PluginHosting.install(LV2PluginHost(worker: live ? .threaded : .synchronous))
    }
}
