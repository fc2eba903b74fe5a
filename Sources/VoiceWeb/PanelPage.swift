/// The panel's page: HTML, CSS and JavaScript in one string, shipped inside the binary and
/// loading nothing from elsewhere.
///
/// The page opens `/ws` with the token from its own address, draws the meters from each figures
/// message (2 dB segments coloured by their level, peaks held for 2 s, clip lamps at full-scale
/// peaks, 30 s of history on a canvas), draws the chain as a rack of units from the setup
/// message (`PanelRackScript`) and the other keys as settings, and sends each change as one
/// request.
///
/// - Realtime: never; a constant.
enum PanelPage {
    static let html =
        head + body + "<script>\n'use strict';\n" + PanelScript.js + PanelRackScript.js + PanelUnitMeterScript.js
        + "</script></body></html>\n"

    private static let head = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>voicerack</title>
        <style>
        """ + PanelStyle.css + """
            </style></head>

            """

    /// One level meter: name, segments (filled by the script), reading, clip lamp.
    private static func meter(_ id: String, _ name: String) -> String {
        """
          <div class="meter" id="meter-\(id)"><span>\(name)</span><div class="bar"></div><span class="db" id="\(id)-db">–</span><span class="lamp" title="clip"></span></div>

        """
    }

    private static let body =
        """
        <body>
        <header><h1>voicerack</h1><span id="preset" class="pill">preset</span>
        <span id="link" class="pill">connecting…</span><span id="rec" class="pill">not recording</span>
        <span id="onair" class="pill" hidden>ON AIR</span>
        <span id="muted" class="pill" hidden>MONITOR MUTED</span></header>
        <main>
        <section id="levels"><h2>Levels (dBFS)</h2>

        """ + meter("mic", "mic") + meter("far", "far end") + meter("voice", "voice") + meter("monitor", "monitor")
            + """
              <div class="scale" aria-hidden="true"><span></span><div class="ticks" id="ticks"></div><span></span><span></span></div>
              <div class="row"><button id="unmute" hidden>Unmute monitor</button><button id="mute">Mute voice</button></div>
            </section>
            <section id="echo"><h2>Echo removal</h2>
              <div class="row"><span class="verdict" id="verdict">–</span></div>
              <div class="figures">
                <div class="fig"><span>removed</span><b id="erle">–</b></div>
                <div class="fig"><span>delay</span><b id="delay">–</b></div>
                <div class="fig"><span>drift</span><b id="drift">–</b></div>
                <div class="fig"><span>voice</span><b><i class="lamp green" id="vad"></i></b></div>
                <div class="fig"><span>double talk</span><b><i class="lamp amber" id="doubletalk"></i></b></div>
                <div class="fig"><span>leveller</span><b id="leveller">–</b></div>
                <div class="fig"><span>loudness</span><b id="loudness">–</b></div>
                <div class="fig"><span>DSP load</span><b id="load">–</b></div>
                <div class="fig"><span>xruns</span><b id="xruns">0</b></div>
                <div class="fig"><span>overruns</span><b id="overruns">0</b></div>
                <div class="fig"><span>mic → voice</span><b id="reduction">–</b></div>
              </div>
            </section>
            <section class="wide"><h2>Last 30 s</h2>
              <canvas id="history" height="160"></canvas>
              <div class="legend"><span><i style="background:#4ea1ff"></i>mic</span><span><i style="background:#3fbf6f"></i>voice (dBFS, left scale)</span><span><i style="background:#e0c341"></i>echo removed (dB, right scale)</span></div>
            </section>
            <section id="rack" class="wide"><h2>Chain</h2>
              <div id="units"></div>
              <div class="row"><select id="addunit" aria-label="unit to add"></select><button id="add">Add unit</button></div>
            </section>
            <section id="stream"><h2>Stream</h2>
              <div class="row"><span class="stream-state" id="streamstate">–</span></div>
              <div class="figures">
                <div class="fig"><span>on air</span><b id="streamtime">00:00:00</b></div>
                <div class="fig"><span>reconnects</span><b id="streamreconnects">0</b></div>
                <div class="fig"><span>time lost</span><b id="streamlost">0.0 s</b></div>
              </div>
              <div class="note" id="streamreason"></div>
              <div class="row"><button id="streamstart">Start stream</button><button id="streamstop">Stop stream</button></div>
            </section>
            <section id="recording"><h2>Recording</h2>
              <div class="row"><button id="record" class="rec">● Record</button><b id="rectime">00:00:00</b></div>
              <div class="figures">
                <div class="fig"><span>frames not run (xruns)</span><b id="recxruns">0</b></div>
                <div class="fig" title="per file: frames lost to a slow disk, and frames not run while recording"><span>written as silence</span><b id="lost">0 frames</b></div>
              </div>
              <div class="row" id="taps">taps:
                <label><input type="checkbox" id="tap-voice" value="voice">voice</label><label><input type="checkbox" id="tap-mic" value="mic">mic</label>
                <label><input type="checkbox" id="tap-reference" value="reference">reference</label><label><input type="checkbox" id="tap-monitor" value="monitor">monitor</label>
                <label><input type="checkbox" id="tap-tuning" value="tuning">tuning</label><label><input type="checkbox" id="tap-karaoke" value="karaoke">karaoke</label>
              </div>
              <div class="note">none ticked: the --record files, else the voice</div>
              <div id="files" class="note"></div>
            </section>
            <section id="backing"><h2>Backing track and presets</h2>
              <div class="row"><button id="pause">Play / pause</button><span id="backingstate">no backing track</span></div>
              <div class="row"><select id="presetlist" aria-label="preset"></select><button id="load">Load preset</button></div>
              <div class="row"><input type="text" id="savename" placeholder="name" maxlength="64"><button id="save">Save as preset</button></div>
              <div id="log"></div>
            </section>
            <section class="wide" id="controls"><h2>Settings</h2><div id="sections"></div></section>
            </main>

            """
}
