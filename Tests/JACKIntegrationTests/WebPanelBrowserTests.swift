import Foundation
import Testing
import VoiceFiles

/// The web panel (`run --web`) in a real browser: Debian's chromium against voicerack on a dummy
/// jackd, with jack_simple_client's sine on mic_in and jack_capture measuring the ports.
extension LiveClientTests {
    @Test(
        "web panel in chromium: meters follow a sine on mic_in within 1 dB at 20+ updates/s, a slider moves voice_out by its dB, the record button records, a preset is saved",
        .enabled(
            if: Tools.jackCapture != nil && Tools.jackSimpleClient != nil && BrowserDriver.available,
            "jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv (scripts/install-deps.sh) is missing"
        ))
    func webPanelInBrowser() throws {
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let presets = folder + "/presets"
        let rig = try SineRig(
            [
                "--preset", "raw", "--web", "0", "--record", "voice=" + folder + "/take{n}-{tap}.wav",
                "--record", "mic=" + folder + "/take{n}-{tap}.wav",
            ],
            environment: ["VOICERACK_PRESETS": presets])
        defer { rig.voicerack.stop(SIGKILL) }
        rig.expectOutput("web panel: open http://127.0.0.1:")
        let url = try #require(
            rig.voicerack.output.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map {
                String($0.split(separator: "\n")[0])
            })
        let browser = try BrowserDriver()
        defer { browser.quit() }
        #expect(browser.run(["cmd": "open", "url": url]) as? String == "live")

        // Meters: at least 20 figure messages drawn per second, and the mic's level as the page
        // shows it within 1 dB of the sine's true RMS, measured on the sine's own port.
        let rate = browser.run(["cmd": "rate", "seconds": 2]) as? Double ?? 0
        let truth = 20 * log10(Double(try rig.settledRMS("sine:output1")))
        browser.wait("parseFloat(document.getElementById('mic-db').dataset.db) > -30")
        let shown = browser.value("parseFloat(document.getElementById('mic-db').dataset.db)") as? Double ?? -120
        print(
            "web panel: \(String(format: "%.1f", rate)) updates/s; mic shown \(String(format: "%.2f", shown)) dBFS, true \(String(format: "%.2f", truth)) dBFS"
        )
        #expect(rate >= 20)
        #expect(abs(shown - truth) < 1)
        // The loudness readout: voice_out is the sine (raw preset), whose short-term loudness is
        // its RMS level within a dB (K-weighting is within 0.5 dB of flat from 300 Hz to 1 kHz).
        browser.wait("document.getElementById('loudness').textContent.includes('LUFS')")
        let lufs = browser.value("parseFloat(document.getElementById('loudness').textContent)") as? Double ?? 0
        print("web panel: loudness shown \(lufs) LUFS")
        #expect(abs(lufs - truth) < 1.5)

        // A slider: 24 presses of the left arrow on output.gain_db (0.5 dB steps) set -12 dB.
        let before = try rig.settledRMS()
        let set = browser.run(["cmd": "keys", "id": "control-output.gain_db", "key": "LEFT", "count": 24]) as? String
        let setDB = Double(set ?? "") ?? 0
        browser.wait("document.getElementById('log').textContent.includes('output.gain_db = \(set ?? "?")')")
        let after = try rig.voiceRMS()
        let changeDB = 20 * log10(Double(after / before))
        print(
            "web panel: slider at \(setDB) dB; voice_out \(before) → \(after) RMS (\(String(format: "%.2f", changeDB)) dB)"
        )
        #expect(setDB == -12)
        #expect(abs(changeDB - setDB) < 0.2)

        // Recording: the take --record started (voice and mic taps) is stopped with the button,
        // then a second take is made and stopped with it.
        browser.wait("document.getElementById('record').dataset.recording === 'true'")
        browser.run(["cmd": "click", "id": "record"])
        browser.wait("document.getElementById('record').dataset.recording === 'false'")
        browser.run(["cmd": "click", "id": "record"])
        browser.wait("document.getElementById('files').textContent.includes('take2-mic.wav')")
        browser.wait("document.getElementById('rectime').textContent >= '00:00:01'")
        let shot = BrowserDriver.artefacts + "/web-panel.png"
        #expect(browser.run(["cmd": "screenshot", "path": shot]) as? Bool == true)
        print("web panel: screenshot \(shot)")
        browser.run(["cmd": "click", "id": "record"])
        browser.wait("document.getElementById('record').dataset.recording === 'false'")
        for tap in ["voice", "mic"] {
            let take = try AudioFileContents.read(folder + "/take2-\(tap).wav")
            print("web panel: take2-\(tap).wav \(take.frames) frames")
            #expect(take.frames >= 48_000, "a second or more of audio")
        }
        // A take of chosen taps: with only "mic" ticked, take 3 is take3-mic.wav and nothing else.
        browser.run(["cmd": "click", "id": "tap-mic"])
        browser.run(["cmd": "click", "id": "record"])
        browser.wait("document.getElementById('files').textContent.includes('take3-mic.wav')")
        browser.wait("document.getElementById('rectime').textContent >= '00:00:01'")
        let files = browser.value("document.getElementById('files').textContent") as? String ?? ""
        browser.run(["cmd": "click", "id": "record"])
        browser.wait("document.getElementById('record').dataset.recording === 'false'")
        print("web panel: taps chosen: mic; recording showed '\(files)'")
        #expect(files == "take3-mic.wav", "only the ticked tap is recorded")
        #expect(try AudioFileContents.read(folder + "/take3-mic.wav").frames >= 48_000)
        #expect(!FileManager.default.fileExists(atPath: folder + "/take3-voice.wav"))

        // Saving the setup as a preset: a name that climbs out of the preset folder is refused by
        // the page's server; a plain name writes NAME.toml there, holding the slider's value.
        for name in ["../../escaped", "mine"] {
            browser.run(["cmd": "eval", "js": "document.getElementById('savename').value = '\(name)'"])
            browser.run(["cmd": "click", "id": "save"])
        }
        browser.wait("document.getElementById('log').textContent.includes('saved the running setup')")
        let log = browser.value("document.getElementById('log').textContent") as? String ?? ""
        #expect(log.contains("refused: '../../escaped' is not a preset name"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/escaped.toml"))
        #expect(!FileManager.default.fileExists(atPath: presets + "/../../escaped.toml"))
        let saved = (try? String(contentsOfFile: presets + "/mine.toml", encoding: .utf8)) ?? ""
        #expect(saved.contains("gain_db = -12"), "the saved preset:\n\(saved)")
        rig.stop()
    }
}
