import Foundation

/// A tiny LV2 bundle built for tests in a temporary folder (use the folder as LV2_PATH): one
/// binary, compiled with the system's `cc`, holding two gain plugins whose output is the input
/// times their `gain` control (0...1, default 1):
///
/// * `urn:voicerack:test:gain` requires nothing;
/// * `urn:voicerack:test:needs-feature` requires `urn:voicerack:test#madeUpFeature`, which no
///   host provides: the case of an installed plugin voicerack must refuse.
///
/// The two differ only in that requirement, so a test that loads the first and is refused the
/// second shows the refusal comes from the feature. A second binary holds the worker plugin
/// (TestLV2Bundle+Worker.swift).
public enum TestLV2Bundle {
    public static let gainURI = "urn:voicerack:test:gain"
    public static let needsFeatureURI = "urn:voicerack:test:needs-feature"
    public static let madeUpFeature = "urn:voicerack:test#madeUpFeature"

    /// Writes and builds the bundle under `folder`; returns `folder` (the LV2_PATH to use).
    public static func build(in folder: TemporaryFolder) throws -> String {
        let bundle = folder.file("voicerack-test.lv2")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try source.write(toFile: bundle + "/gain.c", atomically: true, encoding: .utf8)
        try workerSource.write(toFile: bundle + "/worker.c", atomically: true, encoding: .utf8)
        try (manifest + workerManifest).write(toFile: bundle + "/manifest.ttl", atomically: true, encoding: .utf8)
        for name in ["gain", "worker"] {
            let cc = try CommandRunner.run(
                "/usr/bin/env",
                ["cc", "-shared", "-fPIC", "-O2", "-o", bundle + "/\(name).so", bundle + "/\(name).c"])
            guard cc.status == 0 else {
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cc failed: \(cc.standardError)"])
            }
        }
        return folder.path
    }

    private static func plugin(_ uri: String, _ name: String, requires feature: String?) -> String {
        """
        <\(uri)> a lv2:Plugin, lv2:AmplifierPlugin ;
            lv2:binary <gain.so> ;
            doap:name "\(name)" ;
            \(feature.map { "lv2:requiredFeature <\($0)> ;" } ?? "")
            lv2:optionalFeature lv2:hardRTCapable ;
            lv2:port [ a lv2:AudioPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] ,
                [ a lv2:ControlPort, lv2:InputPort ; lv2:index 2 ; lv2:symbol "gain" ; lv2:name "Gain" ;
                  lv2:default 1.0 ; lv2:minimum 0.0 ; lv2:maximum 1.0 ] .

        """
    }

    private static var manifest: String {
        """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .

        """ + plugin(gainURI, "voicerack test gain", requires: nil)
            + plugin(
                needsFeatureURI, "voicerack test gain needing a made-up feature", requires: madeUpFeature)
    }

    private static let source = """
        #include <lv2/core/lv2.h>
        #include <stdlib.h>
        typedef struct { const float *in; float *out; const float *gain; } Gain;
        static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path,
                                      const LV2_Feature *const *features) {
            return calloc(1, sizeof(Gain));
        }
        static void connect(LV2_Handle h, uint32_t port, void *data) {
            Gain *g = h;
            if (port == 0) g->in = data; else if (port == 1) g->out = data; else g->gain = data;
        }
        static void run(LV2_Handle h, uint32_t n) {
            Gain *g = h;
            for (uint32_t i = 0; i < n; i++) g->out[i] = g->in[i] * *g->gain;
        }
        static void cleanup(LV2_Handle h) { free(h); }
        static const LV2_Descriptor plain = {"\(gainURI)", instantiate, connect, NULL, run, NULL, cleanup, NULL};
        static const LV2_Descriptor needy = {"\(needsFeatureURI)", instantiate, connect, NULL, run, NULL, cleanup, NULL};
        LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t i) {
            return i == 0 ? &plain : i == 1 ? &needy : NULL;
        }
        """
}
