import Foundation
import Glibc
import Testing

@testable import VoicePresets

/// A preset path that names a device, a FIFO or a socket is refused for what it is, before it
/// is read (a FIFO would block the read for ever), not blamed on permissions.
@Suite struct PresetFileKindTests {
    @Test func aDeviceOrAFIFOIsNotARegularFile() throws {
        let temporary = try TemporaryPresets()
        let fifo = temporary.directory + "/pipe.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in ["/dev/null", fifo] {
            let error = presetError { () throws(PresetError) in try temporary.library.load(path) }
            #expect(
                error?.description
                    == "\(path): is not a regular file (a device, FIFO or socket); a preset is a TOML file")
        }
    }
}
