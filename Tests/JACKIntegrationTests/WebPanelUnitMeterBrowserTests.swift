import Foundation
import Testing
import VoiceTestSupport

/// Each rack unit's meters in chromium: the compressor's card reads the gain reduction its
/// static curve gives for the sine (jack_simple_client's, peak -14 dBFS, raised or lowered by
/// the input gain), and none for a quiet input; the equalizer's card has no reduction row.
extension LiveClientTests {
    @Test(
        "web panel unit meters in chromium: the compressor's card shows its static curve's gain reduction for a loud sine and none for a quiet one; the equalizer shows none",
        .enabled(
            if: browserTools, "jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv is missing"
        ))
    func webPanelUnitMeters() throws {
        try withPanel(["--preset", "raw"]) { rig, browser in
            let inputRMS = Self.dB(try rig.settledRMS("sine:output1"))
            browser.run([
                "cmd": "eval", "js": "send({ op: 'set', key: 'chain.order', value: 'compressor, equalizer' })",
            ])
            Self.waitForChain(browser, ["compressor", "equalizer"])
            let reduction = "parseFloat(document.getElementById('gr-compressor-db').dataset.db)"
            let unitPeak = "parseFloat(document.getElementById('unit-compressor-db').dataset.db)"
            // The compressor's defaults (threshold -20 dBFS, ratio 4, knee 6 dB, peak detector):
            // 0.75 dB of reduction per dB of peak over -20 dBFS.
            func curve(_ peak: Double) -> Double { max(0, 0.75 * (peak + 20)) }

            // Loud: +10 dB of input gain puts the sine's peak at about -4 dBFS, 12 dB of reduction.
            let loudPeak = inputRMS + 3.01 + 10
            Self.setControl(browser, "input.gain_db", "10")
            browser.wait("Math.abs(\(reduction) - \(curve(loudPeak))) < 2")
            Thread.sleep(forTimeInterval: 1)
            let loud = browser.value(reduction) as? Double ?? -1
            let loudOut = browser.value(unitPeak) as? Double ?? 0
            let width = browser.value("document.querySelector('#gr-compressor .fill').style.width") as? String ?? ""
            let shownRows =
                browser.value(
                    "[...document.querySelectorAll('.unit-meter')].filter((r) => !r.hidden).map((r) => r.id).join(' ')")
                as? String ?? ""
            print(
                String(
                    format:
                        "web panel unit meters: sine peak %.2f dBFS; compressor reduction %.2f dB (curve %.2f), its output peak %.2f dBFS; bar %@; rows shown: %@",
                    loudPeak, loud, curve(loudPeak), loudOut, width, shownRows))
            #expect(abs(loud - curve(loudPeak)) < 1.5)
            #expect(abs(loudOut - (loudPeak - loud)) < 1.5)
            #expect(width != "0%" && width != "", "the reduction bar is drawn")
            #expect(
                shownRows == "meter-unit-compressor gr-compressor meter-unit-equalizer",
                "the equalizer has no gain reduction row")

            // Quiet: -30 dB puts the peak at about -44 dBFS, under the knee: no reduction.
            Self.setControl(browser, "input.gain_db", "-30")
            browser.wait("\(reduction) < 0.05 && \(unitPeak) < -40")
            let quiet = browser.value(reduction) as? Double ?? -1
            let text = browser.value("document.getElementById('gr-compressor-db').textContent") as? String ?? ""
            let quietWidth =
                browser.value("document.querySelector('#gr-compressor .fill').style.width") as? String ?? ""
            let colours =
                browser.value(
                    "[...new Set([...document.querySelectorAll('#meter-unit-compressor .seg.lit')].map((s) => getComputedStyle(s).backgroundColor))].join(' ')"
                ) as? String ?? ""
            print(
                "web panel unit meters: quiet sine, compressor reduction \(quiet) dB ('\(text)'), bar \(quietWidth), lit colours \(colours)"
            )
            #expect(quiet < 0.05 && quiet >= 0)
            #expect(text == "0.0" && quietWidth == "0%")
            #expect(colours == "rgb(63, 191, 111)", "green only at -44 dBFS")
        }
    }
}
