import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --out` over special files: a device or FIFO is written into, never
/// replaced by a regular file; a symlink is followed (and said so); other special files are
/// refused (73). Device nodes are made with mknod in a private folder (root only).
@Suite("voicerack process: --out over special files")
struct OutputTargetCommandTests {
    let folder: TemporaryFolder
    let mic: String

    init() throws {
        folder = try TemporaryFolder()
        mic = try TestFiles.wav(
            folder.file("mic.wav"), [Signals.speechLike(count: 32_000, sampleRate: 16_000, rms: 0.1, seed: 4)],
            rate: 16_000)
    }

    func process(_ out: String, _ extra: [String] = []) throws -> CommandRunner.Result {
        try CommandRunner.voicerack(["process", "--preset", "raw", "--mic", mic, "--out", out, "--force"] + extra)
    }

    /// A device number (glibc's makedev is a macro): major << 8 | minor, exact for minors < 256.
    static func device(_ major: UInt64, _ minor: UInt64) -> dev_t { dev_t((major << 8) | minor) }

    func fileType(_ path: String) -> mode_t? {
        var s = stat()
        return lstat(path, &s) == 0 ? s.st_mode & S_IFMT : nil
    }

    @Test("a character device (a /dev/null twin) stays a device", .enabled(if: getuid() == 0, "mknod needs root"))
    func characterDevice() throws {
        let null = folder.file("null")
        #expect(mknod(null, S_IFCHR | 0o666, Self.device(1, 3)) == 0)
        let r = try process(null, ["--format", "wav"])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(fileType(null) == S_IFCHR, "the device node was replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["mic.wav", "null"])
    }

    @Test("a FIFO is streamed into (Ogg Vorbis) and stays a FIFO")
    func fifo() throws {
        let fifo = folder.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let copy = folder.file("copy.ogg")
        // A reader on the FIFO; `timeout` ends it should voicerack never open the FIFO.
        let script =
            "timeout 60 cat '\(fifo)' > '\(copy)' & '\(CommandRunner.voicerack)' process --preset raw --mic '\(mic)' --out '\(fifo)' --force --format ogg; s=$?; wait; exit $s"
        let r = try CommandRunner.run("/bin/sh", ["-c", script])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(fileType(fifo) == S_IFIFO, "the FIFO was replaced")
        #expect(try AudioFileContents.read(copy).frames == 32_000)
    }

    @Test("a FIFO with a format libsndfile cannot stream is refused (64) before anything is written")
    func fifoWithWAV() throws {
        let fifo = folder.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try process(fifo)
        #expect(r.status == 64, "\(r.standardError)")
        #expect(
            r.standardError.contains(
                "output \(fifo) is a FIFO that cannot seek; libsndfile streams only ogg and opus into it, not wav:float (give --format ogg)"
            ), "\(r.standardError)")
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test("a symlink is followed: its target is replaced, the link stays, and it is said")
    func symlink() throws {
        let real = folder.file("real.wav")
        let link = folder.file("link.wav")
        FileManager.default.createFile(atPath: real, contents: Data("old".utf8))
        #expect(Foundation.symlink(real, link) == 0)
        let r = try process(link)
        #expect(r.status == 0, "\(r.standardError)")
        #expect(fileType(link) == S_IFLNK)
        #expect(try AudioFileContents.read(real).frames == 32_000)
        let resolved = URL(fileURLWithPath: real).resolvingSymlinksInPath().path
        #expect(
            r.standardError.contains("output \(link) is a symbolic link; writing to its target \(resolved)"),
            "\(r.standardError)")
    }

    @Test("a dangling symlink and a block device are refused (73), left as they are")
    func refused() throws {
        let dangling = folder.file("dangling.wav")
        #expect(Foundation.symlink(folder.file("nowhere.wav"), dangling) == 0)
        let d = try process(dangling)
        #expect(d.status == 73, "\(d.standardError)")
        #expect(d.standardError.contains("is a symbolic link to a file that does not exist"))
        #expect(fileType(dangling) == S_IFLNK)
        guard getuid() == 0 else { return }
        let block = folder.file("block.wav")
        #expect(mknod(block, S_IFBLK | 0o600, Self.device(7, 200)) == 0)
        let b = try process(block)
        #expect(b.status == 73, "\(b.standardError)")
        #expect(b.standardError.contains("is neither a regular file, a character device nor a FIFO"))
        #expect(fileType(block) == S_IFBLK)
    }

    @Test("an --out that cannot be created is named itself, never the hidden temporary beside it")
    func uncreatableOutNamesItself() throws {
        let r = try process("/proc/x.wav")
        #expect(r.status == 73, "\(r.standardError)")
        #expect(r.standardError.contains("/proc/x.wav: cannot create /proc/x.wav:"), "\(r.standardError)")
        #expect(!r.standardError.contains(".partial"), "\(r.standardError)")
    }
}
