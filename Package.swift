// swift-tools-version:6.1
//
// voicerack: a real-time voice processing host for JACK (echo cancellation, noise suppression,
// levelling, effects, recording). Layout and the rules that keep it honest are in README.md:
// the real-time core and the units import no C module, and each C library is imported by
// exactly one Swift target.

import Foundation
import PackageDescription

// MARK: - RealtimeSanitizer (test-only)

/// Path of compiler-rt's RealtimeSanitizer runtime, given by scripts/test.sh as
/// `clang --print-file-name=libclang_rt.rtsan-x86_64.a`. When set, the test bundle links the runtime
/// and `RealtimeSafetyTests` aborts on any allocation, lock or system call inside a real-time region.
let rtsanRuntime = ProcessInfo.processInfo.environment["VOICERACK_RTSAN_RUNTIME"]
let rtsanLinkerSettings: [LinkerSetting] =
    rtsanRuntime.map {
        [
            .unsafeFlags([
                "-Xlinker", "--whole-archive", "-Xlinker", $0, "-Xlinker", "--no-whole-archive",
                "-lstdc++",
            ])
        ]
    } ?? []

// MARK: - Process-thread targets optimised in debug builds

/// `-O` for the targets whose code runs on JACK's process thread, in debug builds too. The live
/// tests run the debug build against a real jackd, and unoptimised DSP takes most of a
/// 256-sample period there (docs/measurements.md, "Live ear return and ducking"): a host stall
/// of a millisecond or two, charged to the thread as CPU time, then reads as voicerack
/// overrunning its period. Optimised, the tests time what a user runs. The RealtimeSanitizer build keeps `-Onone`, so it still sees every
/// allocation and lock the unoptimised code makes.
let processThreadSettings: [SwiftSetting] =
    rtsanRuntime == nil ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
    name: "voicerack",
    products: [
        .executable(name: "voicerack", targets: ["voicerack"]),
        .executable(name: "voicerack-bench", targets: ["voicerack-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The web panel's HTTP and WebSocket server: small, no SwiftNIO (a light build). Kept in
        // Vendor/ with voicerack's patches (Vendor/FlyingFox/PATCHES.md).
        .package(path: "Vendor/FlyingFox"),
    ],
    targets: [
        // MARK: C libraries (one wrapper each, found through pkg-config, installed from Debian)
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CShout", pkgConfig: "shout", providers: [.apt(["libshout3-dev"])]),
        .systemLibrary(name: "COpusEnc", pkgConfig: "libopusenc", providers: [.apt(["libopusenc-dev"])]),
        .systemLibrary(name: "CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // LAME ships no pkg-config file: the module map links mp3lame itself.
        .systemLibrary(name: "CLame", providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev", "lv2-dev"])]),
        // What Swift cannot call directly: jack_client_open is variadic.
        .target(name: "CJackShim", dependencies: ["CJack"]),
        // Weak hooks into RealtimeSanitizer's runtime; no-ops unless the runtime is linked.
        .target(name: "CRealtimeCheck"),
        // LV2's log feature: its printf is variadic, which Swift cannot implement.
        .target(name: "CLV2Log"),
        // DeepFilterNet's runtime (libDF's C API), loaded with dlopen: no Debian package ships it.
        .target(name: "CDeepFilter", linkerSettings: [.linkedLibrary("dl")]),

        // MARK: Real-time core (pure Swift, no C)
        .target(name: "VoiceRT", swiftSettings: processThreadSettings),
        .target(name: "VoiceUnits", dependencies: ["VoiceRT"], swiftSettings: processThreadSettings),
        // What every control surface shares: the commands, their replies, the meters snapshot
        // and the hub the live session serves them through (pure Swift, no audio).
        .target(name: "VoiceControl"),

        // MARK: C library edges
        .target(name: "VoiceSpeex", dependencies: ["CSpeexDSP", "VoiceRT"], swiftSettings: processThreadSettings),
        .target(name: "VoiceFiles", dependencies: ["CSndFile"]),
        // EBU R128 loudness (libebur128): the offline normaliser and the live meter (a tap's
        // consumer, as the recorder is); off the process thread.
        // The PipeWire desktop: the graph (pw-dump --monitor), links, defaults, mute, notifications,
        // through PipeWire's and the desktop's own tools. Main thread and its own threads.
        .target(name: "VoicePipeWire"),
        .target(name: "VoiceLoudness", dependencies: ["CEbur128", "VoiceFiles", "VoiceUnits", "VoiceRecorder"]),
        // The only importer of lilv and the LV2 headers: the plugin catalog, host features,
        // the real-time LV2Unit and the engine's PluginHost (LV2PluginHost).
        .target(
            name: "VoiceLV2", dependencies: ["CLilv", "CLV2Log", "VoiceRT", "VoiceUnits", "VoiceEngine"],
            swiftSettings: processThreadSettings),

        // MARK: Engine, presets, host
        // The echo canceller behind its interface (`EchoCanceller`): speexdsp's canceller with the
        // delay, drift, speaker-curve, suppressor and post-filter pieces, and its null twin.
        // The noise and residual echo suppressor behind its interface (`NoiseSuppressor`), which
        // the canceller drives with its residual echo spectrum.
        .target(
            name: "VoiceSuppressor", dependencies: ["VoiceRT", "VoiceUnits"], swiftSettings: processThreadSettings),
        .target(
            name: "VoiceEcho", dependencies: ["VoiceRT", "VoiceUnits", "VoiceSpeex", "VoiceSuppressor"],
            swiftSettings: processThreadSettings),
        // The learned noise suppressor (DeepFilterNet 3) on a worker thread, the only importer of
        // CDeepFilter: its process-thread side, the worker and the runtime's loading.
        .target(
            name: "VoiceDeepFilter", dependencies: ["CDeepFilter", "VoiceRT"], swiftSettings: processThreadSettings),
        .target(
            name: "VoiceEngine", dependencies: ["VoiceRT", "VoiceUnits", "VoiceSpeex", "VoiceEcho", "VoiceDeepFilter"],
            swiftSettings: processThreadSettings),
        // What a session is set to around the engine (JACK, recording, backing, stream) and the
        // stream settings' checks, which need no codec (pure Swift).
        .target(name: "VoiceSession"),
        .target(
            name: "VoicePresets",
            dependencies: ["VoiceEngine", "VoiceUnits", "VoiceFiles", "VoiceSession", "VoiceControl"]),
        .target(name: "VoiceRecorder", dependencies: ["VoiceRT", "VoiceFiles"], swiftSettings: processThreadSettings),
        // The one render cycle every driver runs (ProcessThread/), its owner on the control side
        // (CycleHost) and the driver protocol.
        .target(
            name: "VoiceCycle", dependencies: ["VoiceEngine", "VoiceRT", "VoiceRecorder"],
            swiftSettings: processThreadSettings),
        // The JACK driver, the only importer of CJack: client, ports, process callback, latency,
        // connections, metadata. Knows nothing of presets, recordings or backing tracks.
        .target(
            name: "VoiceJACK", dependencies: ["CJack", "CJackShim", "VoiceCycle"], swiftSettings: processThreadSettings),
        // The only importer of CShout, COpusEnc and CLame: Icecast streaming fed like a recording.
        .target(name: "VoiceStream", dependencies: ["CShout", "COpusEnc", "CLame", "VoiceRecorder", "VoiceSession"]),
        // The only importer of liblo: the OSC control surface (`run --osc`) and the NSM client.
        .target(name: "VoiceOSC", dependencies: ["CLo", "VoiceControl"]),
        // The browser control panel (`run --web`): a control surface (VoiceControl) with its server,
        // token and origin checks and the page. Knows nothing of the engine or the session.
        .target(
            name: "VoiceWeb", dependencies: ["VoiceControl", .product(name: "FlyingFox", package: "FlyingFox")]),
        .target(
            name: "VoiceHost",
            dependencies: [
                "VoiceEngine", "VoicePresets", "VoiceFiles", "VoiceSpeex", "VoiceRecorder", "VoiceCycle", "VoiceJACK",
                "VoiceStream", "VoiceControl", "VoiceSession", "VoicePipeWire", "VoiceLoudness",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Offline runs with a loudness pass, and manifests of them for GNU parallel, Slurm or Kubernetes.
        .target(
            name: "VoiceBatch",
            dependencies: ["VoiceHost", "VoicePresets", "VoiceEngine", "VoiceSession", "VoiceLoudness"]),

        // MARK: Programs
        .executableTarget(
            name: "voicerack",
            dependencies: [
                "VoiceHost", "VoicePresets", "VoiceEngine", "VoiceRecorder", "VoiceCycle", "VoiceJACK", "VoiceLV2",
                "VoiceStream", "VoiceWeb", "VoiceOSC", "VoiceControl", "VoicePipeWire", "VoiceSession", "VoiceBatch",
                "VoiceDeepFilter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "voicerack-bench",
            dependencies: [
                "VoiceEngine", "VoicePresets", "VoiceSpeex", "VoiceTestSupport", "VoiceRecorder", "VoiceFiles",
                "VoiceStream", "VoiceLV2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: Test support
        // A JACK peer for the live-path tests: plays mic/far files into voicerack and records
        // voice_out. A test tool, not part of the product, so it may import CJack itself.
        .executableTarget(name: "voicerack-testpeer", dependencies: ["CJack", "CJackShim", "VoiceFiles"]),
        .target(name: "VoiceTestSupport", dependencies: ["VoiceRT", "VoiceFiles"]),

        // MARK: Tests
        .testTarget(name: "VoiceRTTests", dependencies: ["VoiceRT"]),
        .testTarget(name: "VoiceControlTests", dependencies: ["VoiceControl"]),
        .testTarget(name: "VoiceOSCTests", dependencies: ["VoiceOSC", "VoiceControl"]),
        .testTarget(name: "VoiceUnitsTests", dependencies: ["VoiceUnits", "VoiceTestSupport"]),
        .testTarget(name: "VoiceSpeexTests", dependencies: ["VoiceSpeex", "VoiceTestSupport"]),
        .testTarget(name: "VoiceSuppressorTests", dependencies: ["VoiceSuppressor", "VoiceRT", "VoiceTestSupport"]),
        .testTarget(name: "VoiceEchoTests", dependencies: ["VoiceEcho", "VoiceSpeex", "VoiceTestSupport"]),
        .testTarget(
            name: "VoiceEngineTests",
            dependencies: ["VoiceEngine", "VoiceEcho", "VoiceDeepFilter", "VoicePresets", "VoiceTestSupport"]),
        .testTarget(
            name: "VoicePresetsTests",
            dependencies: ["VoicePresets", "VoiceEngine", "VoiceLV2", "VoiceSession", "VoiceTestSupport"]),
        .testTarget(
            name: "VoiceCycleTests", dependencies: ["VoiceCycle", "VoiceEngine", "VoicePresets", "VoiceTestSupport"]),
        .testTarget(name: "VoiceRecorderTests", dependencies: ["VoiceRecorder", "VoiceFiles", "VoiceTestSupport"]),
        // Streams to a real icecast2 started by the tests; skips when icecast2 is absent.
        .testTarget(
            name: "VoiceStreamTests",
            dependencies: ["VoiceStream", "VoiceSession", "VoiceRecorder", "VoiceFiles", "VoiceTestSupport"]),
        .testTarget(
            name: "VoicePipeWireTests", dependencies: ["VoicePipeWire"]),
        .testTarget(
            name: "VoiceHostTests",
            dependencies: [
                "VoiceHost", "VoiceBatch", "VoiceEngine", "VoiceSession", "VoiceFiles", "VoiceLoudness",
                "VoiceTestSupport",
            ]),
        .testTarget(name: "VoiceLV2Tests", dependencies: ["VoiceLV2", "VoiceUnits", "VoiceTestSupport"]),
        // EBU Tech 3341/3342 signals made with sox, read beside ffmpeg's ebur128 filter.
        .testTarget(name: "VoiceLoudnessTests", dependencies: ["VoiceLoudness", "VoiceFiles", "VoiceTestSupport"]),
        // slurm-array.sh starts the batch test's private one-node Slurm.
        .testTarget(
            name: "CLITests", dependencies: ["VoiceFiles", "VoiceTestSupport", "VoiceDeepFilter"],
            exclude: ["slurm-array.sh"]),
        // The web panel's server against a bare client: token, Host, Origin, message limits. The
        // browser tests (chromium on a dummy jackd; skipped without chromium) are among the JACK ones.
        .testTarget(
            name: "VoiceWebTests", dependencies: ["VoiceWeb", "VoiceControl", "VoicePresets", "VoiceTestSupport"]),
        // Runs the built `voicerack` against a real jackd (dummy driver); skips when jackd is absent.
        // The auto-connect test drives VoiceJACK's driver itself, to make a patchbay's connection
        // between activation and auto-connect.
        // osc-peer.py is the OSC tests' peer (python3-liblo), run with /usr/bin/python3.
        .testTarget(
            name: "JACKIntegrationTests",
            dependencies: ["VoiceTestSupport", "VoiceFiles", "VoiceJACK", "VoiceCycle", "VoiceEngine"],
            exclude: ["osc-peer.py", "nsm-server.py", "panel-attack.py", "notification-server.py"]),
        .testTarget(
            name: "RealtimeSafetyTests",
            dependencies: [
                "VoiceEngine", "VoiceEcho", "VoicePresets", "VoiceCycle", "VoiceRecorder", "VoiceFiles",
                "VoiceTestSupport", "VoiceRT", "CRealtimeCheck", "VoiceDeepFilter",
                "VoiceStream", "VoiceLV2", "VoiceLoudness",
            ],
            linkerSettings: rtsanLinkerSettings),
    ]
)
