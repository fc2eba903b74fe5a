import Foundation

/// lilv's own error lines ("lilv_lib_open(): error: Failed to open library ...", "attempt to
/// map invalid URI"), kept off the terminal: lilv prints them to standard error and offers no
/// hook, so while it loads bundles or instantiates a plugin, descriptor 2 points at a scratch
/// file, and what lilv wrote there is kept (`LV2World.lilvMessages`) for the log.
///
/// - Realtime: never; any thread but the process thread, one capture at a time (a lock: two at
///   once would restore each other's scratch file as standard error). Descriptor 2 is the
///   process's: another thread writing to standard error meanwhile writes into the scratch
///   file, and its lines are kept with lilv's.
enum LilvMessages {
    private static let lock = NSLock()

    /// Runs `body` with standard error in a scratch file; returns its result and the lines
    /// written meanwhile.
    static func captured<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        lock.lock()
        defer { lock.unlock() }
        // No fflush: standard error is unbuffered (lilv's fprintf has written when it returns),
        // and fflush(NULL) would wait for the stdin lock a thread blocked in readLine holds.
        let saved = dup(2)
        var template = Array("/tmp/voicerack-lilv-XXXXXX".utf8CString)
        let scratch = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard saved >= 0, scratch >= 0 else {
            if saved >= 0 { close(saved) }
            if scratch >= 0 { close(scratch) }
            return (try body(), [])
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        dup2(scratch, 2)
        defer {
            dup2(saved, 2)
            close(saved)
            close(scratch)
        }
        let result = try body()
        lseek(scratch, 0, SEEK_SET)
        let text = FileHandle(fileDescriptor: scratch, closeOnDealloc: false).readDataToEndOfFile()
        return (result, String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
