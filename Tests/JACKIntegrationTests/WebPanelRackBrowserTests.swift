import Foundation
import Testing
import VoiceTestSupport

/// The web panel as a rack, in Debian's chromium against voicerack on a dummy jackd with
/// jack_simple_client's sine (RMS 0.1414, -17.0 dBFS) on mic_in: the chain built, reordered
/// and bypassed from the page and measured at voice_out; a quiet input shows no red; the page
/// fits a 412 px phone; the stream card follows a real icecast2 that is killed and restarted.
extension LiveClientTests {
    static var browserTools: Bool {
        Tools.jackCapture != nil && Tools.jackSimpleClient != nil && BrowserDriver.available
    }

    /// The page's address from voicerack's start line.
    static func panelURL(_ rig: SineRig) throws -> String {
        rig.expectOutput("web panel: open http://127.0.0.1:")
        return try #require(
            rig.voicerack.output.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map {
                String($0.split(separator: "\n")[0])
            })
    }

    /// Sets a control the way a user does: its element's value, then its change event.
    static func setControl(_ browser: BrowserDriver, _ key: String, _ value: String) {
        browser.run([
            "cmd": "eval",
            "js":
                "const i = document.getElementById('control-\(key)'); i.value = '\(value)'; i.dispatchEvent(new Event('change'))",
        ])
        browser.wait("document.getElementById('log').textContent.includes('\(key) = ')")
    }

    /// Waits until the page draws the chain `units` (in order).
    static func waitForChain(_ browser: BrowserDriver, _ units: [String]) {
        let list = units.map { "'\($0)'" }.joined(separator: ",")
        browser.wait(
            "JSON.stringify([...document.querySelectorAll('#units .unit')].map((u) => u.dataset.unit)) === JSON.stringify([\(list)])"
        )
    }

    /// Runs `body` with voicerack (`arguments` plus `--web 0`, a token folder of its own) on a
    /// sine rig and the panel open in chromium; `before` runs once the rig is up, before the
    /// page opens. Stops voicerack with SIGINT after and expects a clean exit.
    func withPanel(
        _ arguments: [String], before: (SineRig) throws -> Void = { _ in },
        _ body: (SineRig, BrowserDriver) throws -> Void
    ) throws {
        let config = NSTemporaryDirectory() + "voicerack-panel-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        let rig = try SineRig(arguments + ["--web", "0"], environment: ["XDG_CONFIG_HOME": config])
        defer { rig.voicerack.stop(SIGKILL) }
        try before(rig)
        let url = try Self.panelURL(rig)
        let browser = try BrowserDriver()
        defer { browser.quit() }
        #expect(browser.run(["cmd": "open", "url": url]) as? String == "live")
        try body(rig, browser)
        rig.stop()
    }

    static func dB(_ rms: Float) -> Double { 20 * log10(Double(rms)) }

    @Test(
        "web panel rack in chromium: units added, reordered with ↑ and bypassed from the page move voice_out to the predicted dB; a unit not in the chain is refused",
        .enabled(
            if: browserTools, "jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv is missing"
        ))
    func webPanelRackReorderAndBypass() throws {
        try withPanel(["--preset", "raw"]) { rig, browser in
            let input = Self.dB(try rig.settledRMS("sine:output1"))

            // A unit not in the chain: the page shows no controls for it, and the session refuses a set.
            #expect(
                browser.value("document.getElementById('control-compressor.threshold_dbfs') === null") as? Bool == true)
            browser.run(["cmd": "eval", "js": "send({ op: 'set', key: 'compressor.threshold_dbfs', value: '-18' })"])
            browser.wait(
                "document.getElementById('log').textContent.includes('the compressor unit is not in the chain')")

            // Add the compressor, then the limiter, from the page's list.
            for (unit, chain) in [("compressor", ["compressor"]), ("limiter", ["compressor", "limiter"])] {
                browser.run(["cmd": "eval", "js": "document.getElementById('addunit').value = '\(unit)'"])
                browser.run(["cmd": "click", "id": "add"])
                Self.waitForChain(browser, chain)
            }
            // Compressor: -40 dBFS threshold, 20:1, RMS detector, +20 dB make-up; limiter: -24 dBFS.
            Self.setControl(browser, "compressor.threshold_dbfs", "-40")
            Self.setControl(browser, "compressor.ratio", "20")
            Self.setControl(browser, "compressor.detector", "1")
            Self.setControl(browser, "compressor.makeup_db", "20")
            Self.setControl(browser, "limiter.ceiling_dbfs", "-24")
            let labels =
                browser.value(
                    "[...document.querySelectorAll('#unit-compressor label')].map((l) => l.textContent).join('|')")
                as? String ?? ""
            let detector =
                browser.value(
                    "document.getElementById('control-compressor.detector').selectedOptions[0].textContent") as? String
            let bypassKind =
                browser.value("document.getElementById('control-compressor.bypass').getAttribute('role')") as? String
            print("web panel rack: compressor labels \(labels); detector shows \(detector ?? "?")")
            #expect(labels.contains("Threshold") && labels.contains("Make-up gain") && !labels.contains("_"))
            #expect(detector == "RMS")
            #expect(bypassKind == "switch")

            // What each chain should give for the sine (RMS level L, peak L + 3.01 dB): the
            // compressor far above its threshold gives T + (L - T) / R + makeup; the limiter holds
            // the peak at its ceiling, so RMS = ceiling - 3.01.
            func compressor(_ level: Double) -> Double { -40 + (level + 40) / 20 + 20 }
            let limited = -24 - 3.01
            let orderA = try Self.dB(rig.settledRMS())
            browser.run(["cmd": "click", "id": "up-limiter"])
            Self.waitForChain(browser, ["limiter", "compressor"])
            let orderB = try Self.dB(rig.voiceRMS())
            browser.run(["cmd": "click", "id": "control-compressor.bypass"])
            browser.wait("document.getElementById('unit-compressor').classList.contains('bypassed')")
            browser.wait("document.getElementById('log').textContent.includes('compressor.bypass = 1')")
            let bypassed = try Self.dB(rig.voiceRMS())
            print(
                String(
                    format:
                        "web panel rack: sine %.2f dBFS; compressor→limiter %.2f (predicted %.2f), limiter→compressor %.2f (predicted %.2f), compressor bypassed %.2f (predicted %.2f)",
                    input, orderA, limited, orderB, compressor(limited), bypassed, limited))
            #expect(abs(orderA - limited) < 1)
            #expect(abs(orderB - compressor(limited)) < 1)
            #expect(abs(bypassed - limited) < 1)
            #expect(orderB - orderA > 5, "the order is heard")

            // Dragging the compressor's card onto the limiter's puts it first again.
            browser.run([
                "cmd": "eval",
                "js": """
                const from = document.getElementById('unit-compressor'), to = document.getElementById('unit-limiter');
                const data = new DataTransfer();
                from.dispatchEvent(new DragEvent('dragstart', { dataTransfer: data, bubbles: true }));
                to.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
                to.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
                from.dispatchEvent(new DragEvent('dragend', { dataTransfer: data, bubbles: true }));
                """,
            ])
            Self.waitForChain(browser, ["compressor", "limiter"])

            // Remove both units: the voice is the sine again.
            browser.run(["cmd": "click", "id": "remove-compressor"])
            Self.waitForChain(browser, ["limiter"])
            browser.run(["cmd": "click", "id": "remove-limiter"])
            Self.waitForChain(browser, [])
            let bare = try Self.dB(rig.voiceRMS())
            print(String(format: "web panel rack: chain emptied, voice_out %.2f dBFS", bare))
            #expect(abs(bare - input) < 0.5)
        }
    }

    @Test(
        "web panel in chromium: a -48 dBFS mic lights green segments only; at 412 px the page has no horizontal scroll",
        .enabled(
            if: browserTools, "jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv is missing"
        ))
    func webPanelQuietInputAndPhoneWidth() throws {
        try withPanel(["--preset", "raw"]) { rig, browser in
            let input = Self.dB(try rig.settledRMS("sine:output1"))
            // The input gain that brings the sine to -48 dBFS on the mic meter, set from the page.
            let gain = (-48 - input).rounded()
            Self.setControl(browser, "input.gain_db", String(format: "%.0f", gain))
            browser.wait("Math.abs(parseFloat(document.getElementById('mic-db').dataset.db) + 48) < 1.5")
            // Read the lit segments' drawn colours, not their classes: what the user sees.
            let colours =
                browser.value(
                    "[...new Set([...document.querySelectorAll('#meter-mic .seg.lit, #meter-mic .seg.hold')].map((s) => getComputedStyle(s).backgroundColor))].join(' ')"
                ) as? String ?? ""
            let lit = browser.value("document.querySelectorAll('#meter-mic .seg.lit').length") as? Int ?? 0
            let shown = browser.value("parseFloat(document.getElementById('mic-db').dataset.db)") as? Double ?? 0
            let ticks = browser.value("document.getElementById('ticks').textContent") as? String ?? ""
            print(
                "web panel: mic at \(String(format: "%.1f", shown)) dBFS, \(lit) segments lit, colours \(colours); scale \(ticks)"
            )
            #expect(lit >= 5 && lit <= 7, "-48 dBFS lights the segments from -60 up to -48")
            #expect(colours == "rgb(63, 191, 111)", "green only, no yellow or red")
            #expect(ticks.contains("-18") && ticks.contains("-6"))

            // The monitor is off in raw: no "Unmute monitor" to press.
            #expect(browser.value("document.getElementById('unmute').hidden") as? Bool == true)

            // A 412 px phone: the page lays out in one column without scrolling sideways.
            #expect(browser.run(["cmd": "viewport", "width": 412]) as? Int == 412)
            browser.wait("document.documentElement.clientWidth === 412")
            let overflow =
                browser.value(
                    "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth"
                ) as? Int ?? -1
            let widest =
                browser.value(
                    "Math.max(...[...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().right))"
                ) as? Double ?? 1e9
            print(
                "web panel at 412 px: overflow \(overflow) px, rightmost element edge \(String(format: "%.1f", widest)) px"
            )
            #expect(overflow == 0)
            #expect(widest <= 412.5)
            let shot = BrowserDriver.artefacts + "/web-panel-412.png"
            browser.run(["cmd": "screenshot", "path": shot])
        }
    }

    @Test(
        "web panel stream card in chromium: on air against icecast2, reconnecting when it is killed, on air again after its restart; stop and start from the card",
        .enabled(
            if: browserTools && IcecastServer.available,
            "icecast2, jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv is missing"))
    func webPanelStreamCard() throws {
        let icecast = try IcecastServer(sourcePassword: "pw-\(UInt32.random(in: 0...UInt32.max))")
        defer { icecast.stop() }
        let mount = "icecast://source:\(icecast.sourcePassword)@127.0.0.1:\(icecast.port)/panel.ogg"
        try withPanel(["--preset", "raw", "--stream", mount]) { rig, browser in
            let state = "document.getElementById('streamstate')"
            browser.wait(
                "\(state).textContent === 'on air' && document.getElementById('streamtime').textContent >= '00:00:02'")
            #expect(poll(timeout: 10) { icecast.hasSource("/panel.ogg") })
            let onAir = browser.value("document.getElementById('onair').hidden") as? Bool
            #expect(onAir == false, "the header says ON AIR")

            icecast.kill()
            browser.wait("\(state).textContent === 'reconnecting'", timeout: 30)
            let killedAt = Date()
            try icecast.start()
            browser.wait(
                "\(state).textContent === 'on air' && +document.getElementById('streamreconnects').textContent >= 1",
                timeout: 60)
            let back = Date().timeIntervalSince(killedAt)
            let lost = browser.value("document.getElementById('streamlost').textContent") as? String ?? ""
            let reconnects = browser.value("document.getElementById('streamreconnects').textContent") as? String ?? ""
            print(
                "web panel stream: reconnecting seen, on air again \(String(format: "%.1f", back)) s after the restart; reconnects \(reconnects), lost \(lost)"
            )
            #expect(poll(timeout: 10) { icecast.hasSource("/panel.ogg") })

            // The card's buttons: stop, then start again.
            browser.run(["cmd": "click", "id": "streamstop"])
            browser.wait("\(state).textContent === 'off'")
            browser.run(["cmd": "click", "id": "streamstart"])
            browser.wait("\(state).textContent === 'on air'", timeout: 30)
            #expect(!rig.voicerack.output.contains(icecast.sourcePassword), "the password is never printed")
        }
    }
}

extension LiveClientTests {
    @Test(
        "web panel in chromium during an echo-only call (the sine on far_in_L and mic_in, echo-cancel, a compressor and limiter in the chain): the echo figures show, a screenshot is saved",
        .enabled(
            if: browserTools, "jack_capture, jack_simple_client, chromium, chromedriver or the selenium venv is missing"
        ))
    func webPanelScreenshotDuringCall() throws {
        try withPanel(
            ["--preset", "echo-cancel"],
            before: { rig in
                let connected = try rig.server.connect("sine:output1", "vr:far_in_L")
                #expect(connected == 0)
            }
        ) { _, browser in
            browser.run(["cmd": "eval", "js": "send({ op: 'set', key: 'chain.order', value: 'compressor, limiter' })"])
            Self.waitForChain(browser, ["compressor", "limiter"])
            browser.wait("document.getElementById('erle').textContent.endsWith('dB')", timeout: 40)
            Thread.sleep(forTimeInterval: 3)
            let verdict = browser.value("document.getElementById('verdict').textContent") as? String ?? ""
            let erle = browser.value("document.getElementById('erle').textContent") as? String ?? ""
            let shot = BrowserDriver.artefacts + "/web-panel-call.png"
            #expect(browser.run(["cmd": "screenshot", "path": shot]) as? Bool == true)
            print("web panel during a call: verdict '\(verdict)', removed \(erle); screenshot \(shot)")
        }
    }
}
