/// The panel's page: HTML, CSS and JavaScript in one string, shipped inside the binary and
/// loading nothing from elsewhere.
///
/// The page opens `/ws` with the token from its own address, draws the meters from each figures
/// message (holding peaks for 2 s, lighting clip lamps at full-scale peaks, keeping 30 s of
/// history on a canvas), builds the controls from the setup message (a slider, switch or list per
/// key; restart-only keys greyed with "restart"), and sends each change as one request.
enum PanelPage {
    static let html = head + body + script

    private static let head = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>voicerack</title>
        <style>
        :root { --bg:#15181c; --panel:#1f242a; --line:#2e353d; --text:#dde3e9; --dim:#8a96a3;
          --green:#3fbf6f; --yellow:#e0c341; --red:#e5484d; --blue:#4ea1ff; }
        * { box-sizing: border-box; }
        body { margin:0; background:var(--bg); color:var(--text); font:14px/1.35 system-ui, sans-serif; }
        header { display:flex; gap:16px; align-items:center; padding:10px 16px; background:var(--panel);
          border-bottom:1px solid var(--line); }
        header h1 { font-size:18px; margin:0; letter-spacing:.5px; }
        .pill { padding:2px 10px; border-radius:999px; background:var(--line); color:var(--dim); }
        .pill.on { background:var(--red); color:#fff; }
        .pill.ok { background:#1d4d2f; color:#bff0cf; }
        main { display:grid; grid-template-columns: minmax(340px, 1fr) minmax(340px, 1fr); gap:12px; padding:12px; }
        section { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:10px 12px; }
        section h2 { font-size:13px; text-transform:uppercase; color:var(--dim); margin:0 0 8px; letter-spacing:1px; }
        .wide { grid-column: 1 / -1; }
        .meter { display:grid; grid-template-columns: 70px 1fr 64px 18px; gap:8px; align-items:center; margin:6px 0; }
        .bar { position:relative; height:16px; background:#0d0f12; border-radius:3px; overflow:hidden; }
        .fill { position:absolute; left:0; top:0; bottom:0; width:0;
          background:linear-gradient(90deg, var(--green) 0 70%, var(--yellow) 70% 88%, var(--red) 88%); }
        .hold { position:absolute; top:0; bottom:0; width:2px; background:#fff; left:0; }
        .db { text-align:right; font-variant-numeric: tabular-nums; }
        .lamp { width:14px; height:14px; border-radius:50%; background:#3a2020; }
        .lamp.lit { background:var(--red); box-shadow:0 0 6px var(--red); }
        .lamp.green.lit { background:var(--green); box-shadow:0 0 6px var(--green); }
        .lamp.green { background:#1e3326; }
        .figures { display:grid; grid-template-columns: repeat(3, 1fr); gap:6px 12px; }
        .fig span { display:block; color:var(--dim); font-size:12px; }
        .fig b { font-size:18px; font-weight:600; font-variant-numeric: tabular-nums; }
        .verdict { font-size:22px; font-weight:700; }
        .verdict.good { color:var(--green); } .verdict.fair { color:var(--yellow); }
        .verdict.poor { color:var(--red); } .verdict.off, .verdict.measuring, .verdict.no { color:var(--dim); }
        button { background:#2b333c; color:var(--text); border:1px solid #3b4550; border-radius:6px; padding:6px 12px;
          font:inherit; cursor:pointer; }
        button.rec { background:#5a1e22; border-color:#7c2a30; }
        button.rec.on { background:var(--red); color:#fff; }
        .row { display:flex; gap:8px; align-items:center; flex-wrap:wrap; margin:6px 0; }
        canvas { width:100%; height:160px; background:#0d0f12; border-radius:4px; }
        .legend span { margin-right:12px; } .legend i { display:inline-block; width:10px; height:3px; margin-right:4px; vertical-align:middle; }
        details { border-top:1px solid var(--line); padding:4px 0; }
        summary { cursor:pointer; color:var(--blue); padding:4px 0; }
        .control { display:grid; grid-template-columns: 230px 1fr 90px; gap:8px; align-items:center; margin:4px 0; }
        .control label { overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
        .control.restart { opacity:.5; }
        .control .note { color:var(--dim); font-size:12px; }
        input[type=range] { width:100%; }
        select, input[type=text] { background:#0d0f12; color:var(--text); border:1px solid var(--line); border-radius:4px; padding:4px; }
        #log { font:12px ui-monospace, monospace; color:var(--dim); max-height:90px; overflow:auto; white-space:pre-wrap; }
        #log .bad { color:var(--red); }
        </style></head>

        """

    private static let body = """
        <body>
        <header><h1>voicerack</h1><span id="preset" class="pill">preset</span>
        <span id="link" class="pill">connecting…</span><span id="rec" class="pill">not recording</span>
        <span id="muted" class="pill" hidden>MONITOR MUTED</span></header>
        <main>
        <section id="levels"><h2>Levels</h2>
          <div class="meter" id="meter-mic"><span>mic</span><div class="bar"><div class="fill"></div><div class="hold"></div></div><span class="db" id="mic-db">–</span><span class="lamp" title="clip"></span></div>
          <div class="meter" id="meter-far"><span>far end</span><div class="bar"><div class="fill"></div><div class="hold"></div></div><span class="db" id="far-db">–</span><span class="lamp" title="clip"></span></div>
          <div class="meter" id="meter-voice"><span>voice</span><div class="bar"><div class="fill"></div><div class="hold"></div></div><span class="db" id="voice-db">–</span><span class="lamp" title="clip"></span></div>
          <div class="meter" id="meter-monitor"><span>monitor</span><div class="bar"><div class="fill"></div><div class="hold"></div></div><span class="db" id="monitor-db">–</span><span class="lamp" title="clip"></span></div>
          <div class="row"><button id="unmute">Unmute monitor</button><button id="mute">Mute voice</button></div>
        </section>
        <section id="echo"><h2>Echo removal</h2>
          <div class="row"><span class="verdict" id="verdict">–</span></div>
          <div class="figures">
            <div class="fig"><span>removed</span><b id="erle">–</b></div>
            <div class="fig"><span>delay</span><b id="delay">–</b></div>
            <div class="fig"><span>drift</span><b id="drift">–</b></div>
            <div class="fig"><span>voice</span><b><i class="lamp green" id="vad" style="display:inline-block"></i></b></div>
            <div class="fig"><span>double talk</span><b><i class="lamp" id="doubletalk" style="display:inline-block"></i></b></div>
            <div class="fig"><span>leveller</span><b id="leveller">–</b></div>
            <div class="fig"><span>loudness</span><b id="loudness">–</b></div>
            <div class="fig"><span>DSP load</span><b id="load">–</b></div>
            <div class="fig"><span>xruns</span><b id="xruns">0</b></div>
            <div class="fig"><span>overruns</span><b id="overruns">0</b></div>
            <div class="fig"><span>mic → voice</span><b id="reduction">–</b></div>
          </div>
        </section>
        <section class="wide"><h2>Last 30 s</h2>
          <canvas id="history" width="1200" height="160"></canvas>
          <div class="legend"><span><i style="background:#4ea1ff"></i>mic</span><span><i style="background:#3fbf6f"></i>voice</span><span><i style="background:#e0c341"></i>echo removed (dB, right scale)</span></div>
        </section>
        <section id="recording"><h2>Recording</h2>
          <div class="row"><button id="record" class="rec">● Record</button><b id="rectime">00:00:00</b><span id="lost"></span></div>
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
          <div class="row"><select id="presetlist"></select><button id="load">Load preset</button></div>
          <div class="row"><input type="text" id="savename" placeholder="name" maxlength="64"><button id="save">Save as preset</button></div>
          <div id="log"></div>
        </section>
        <section class="wide" id="controls"><h2>Settings</h2><div id="sections"></div></section>
        </main>

        """

    private static let script = """
        <script>
        'use strict';
        const $ = (id) => document.getElementById(id);
        const token = new URLSearchParams(location.search).get('token') || '';
        let socket, nextId = 1, setup = null, lastSetup = '', lastShape = '';
        const meters = {}, history = [];
        const HISTORY_SECONDS = 30;

        function log(text, bad) {
          const line = document.createElement('div');
          line.textContent = text; if (bad) line.className = 'bad';
          $('log').prepend(line);
        }
        function send(request) {
          if (!socket || socket.readyState !== 1) { log('not connected', true); return; }
          request.id = nextId++; socket.send(JSON.stringify(request));
        }
        function dbText(db) { return db <= -119 ? '-inf' : db.toFixed(1); }
        function position(db) { return Math.max(0, Math.min(100, (db + 60) / 60 * 100)); }
        function meter(name, rms, peak) {
          const m = meters[name] || (meters[name] = { hold: -120, holdAt: 0 });
          const box = $('meter-' + name); const now = performance.now();
          if (peak >= m.hold || now - m.holdAt > 2000) { m.hold = peak; m.holdAt = now; }
          box.querySelector('.fill').style.width = position(rms) + '%';
          box.querySelector('.hold').style.left = position(m.hold) + '%';
          $(name + '-db').textContent = dbText(rms);
          $(name + '-db').dataset.db = rms;
          const lamp = box.querySelector('.lamp');
          // A peak at full scale (the meters' peaks are sample peaks) lights the lamp for 2 s.
          if (peak >= -0.1) m.clipAt = now;
          lamp.classList.toggle('lit', now - (m.clipAt || -1e9) < 2000);
        }
        function clock(s) {
          s = Math.max(0, Math.floor(s));
          const p = (n) => String(n).padStart(2, '0');
          return p(Math.floor(s / 3600)) + ':' + p(Math.floor(s / 60) % 60) + ':' + p(s % 60);
        }
        function show(m) {
          meter('mic', m.micDB, m.micPeakDB);
          meter('far', m.farDB, m.farPeakDB);
          meter('voice', m.voiceDB, m.voicePeakDB);
          meter('monitor', m.monitorDB, m.monitorPeakDB);
          const canceller = setup && setup.controls.find((c) => c.key === 'echo_canceller.enabled');
          const verdict = canceller && canceller.value === 'false' ? 'off' : m.echoVerdict;
          const v = $('verdict'); v.textContent = verdict;
          v.className = 'verdict ' + verdict.split(/[ :]/)[0];
          $('erle').textContent = m.echoRemovalDB == null ? '–' : m.echoRemovalDB.toFixed(0) + ' dB';
          $('delay').textContent = m.delayMS == null ? '–' : m.delayMS.toFixed(0) + ' ms';
          $('drift').textContent = m.driftPPM == null ? '–' : m.driftPPM.toFixed(0) + ' ppm';
          $('vad').classList.toggle('lit', m.voiceActive);
          $('doubletalk').classList.toggle('lit', m.doubleTalk);
          $('leveller').textContent = (m.levellerGainDB >= 0 ? '+' : '') + m.levellerGainDB.toFixed(1) + ' dB';
          $('loudness').textContent = m.shortTermLUFS == null ? '–' : m.shortTermLUFS.toFixed(1) + ' LUFS'
            + (m.integratedLUFS == null ? '' : ' (take ' + m.integratedLUFS.toFixed(1) + ')');
          $('load').textContent = m.dspLoadPercent.toFixed(0) + ' %';
          $('xruns').textContent = m.xruns; $('overruns').textContent = m.overruns;
          $('reduction').textContent = m.micDB <= -119 ? '–' : (m.voiceDB - m.micDB).toFixed(1) + ' dB';
          $('muted').hidden = !m.monitorMuted;
          $('mute').textContent = m.voiceMuted ? 'Unmute voice' : 'Mute voice';
          $('mute').dataset.on = m.voiceMuted;
          const rec = $('rec'); rec.textContent = m.recording ? 'REC ' + clock(m.recordingSeconds) : 'not recording';
          rec.classList.toggle('on', m.recording);
          $('record').textContent = m.recording ? '■ Stop' : '● Record';
          $('record').classList.toggle('on', m.recording); $('record').dataset.recording = m.recording;
          $('rectime').textContent = clock(m.recording ? m.recordingSeconds : 0);
          $('lost').textContent = m.framesLost > 0 ? 'lost ' + m.framesLost + ' frames' : '';
          $('files').textContent = m.recordingFiles.join(', ');
          $('backingstate').textContent = m.backing ? m.backing + ', ' + clock(m.backingSeconds) + ' played' : 'no backing track';
          history.push([m.time, m.micDB, m.voiceDB, m.echoRemovalDB]);
          while (history.length && history[0][0] < m.time - HISTORY_SECONDS) history.shift();
          window.voicerackUpdates = (window.voicerackUpdates || 0) + 1;
        }
        function drawHistory() {
          requestAnimationFrame(drawHistory);
          const c = $('history'), g = c.getContext('2d');
          const w = c.width, h = c.height; g.clearRect(0, 0, w, h);
          g.strokeStyle = '#2e353d'; g.lineWidth = 1;
          for (let db = -60; db <= 0; db += 12) { const y = h - (db + 60) / 60 * h; g.beginPath(); g.moveTo(0, y); g.lineTo(w, y); g.stroke(); }
          if (!history.length) return;
          const end = history[history.length - 1][0];
          const x = (t) => w - (end - t) / HISTORY_SECONDS * w;
          const line = (index, color, scale) => {
            g.strokeStyle = color; g.lineWidth = 2; g.beginPath(); let started = false;
            for (const p of history) {
              const v = p[index]; if (v == null) { started = false; continue; }
              const y = h - scale(v) * h;
              if (started) g.lineTo(x(p[0]), y); else { g.moveTo(x(p[0]), y); started = true; }
            }
            g.stroke();
          };
          line(1, '#4ea1ff', (db) => Math.max(0, (db + 60) / 60));
          line(2, '#3fbf6f', (db) => Math.max(0, (db + 60) / 60));
          line(3, '#e0c341', (db) => Math.max(0, Math.min(1, db / 60)));
        }
        function step(c) {
          const span = c.maximum - c.minimum;
          return span <= 2 ? 0.01 : span <= 20 ? 0.1 : span <= 200 ? 0.5 : 1;
        }
        function note(c) {
          const shown = c.kind === 'number' ? c.value + (c.unit ? ' ' + c.unit : '') : '';
          return c.live ? shown : (shown ? shown + ' · ' : '') + 'restart';
        }
        function control(c) {
          const row = document.createElement('div');
          row.className = 'control' + (c.live ? '' : ' restart'); row.dataset.key = c.key; row.title = c.help;
          const label = document.createElement('label'); label.textContent = c.key.split('.')[1]; row.append(label);
          const value = document.createElement('span'); value.className = 'note';
          let input;
          if (c.kind === 'number') {
            input = document.createElement('input'); input.type = 'range';
            input.min = c.minimum; input.max = c.maximum; input.step = step(c); input.value = c.value;
            value.textContent = note(c);
            input.addEventListener('input', () => value.textContent = input.value + (c.unit ? ' ' + c.unit : ''));
            input.addEventListener('change', () => send({ op: 'set', key: c.key, value: input.value }));
          } else if (c.kind === 'toggle') {
            input = document.createElement('input'); input.type = 'checkbox'; input.checked = c.value === 'true';
            input.addEventListener('change', () => send({ op: 'set', key: c.key, value: String(input.checked) }));
          } else if (c.kind === 'choice') {
            input = document.createElement('select');
            for (const choice of c.choices) { const o = document.createElement('option'); o.textContent = choice; input.append(o); }
            input.value = c.value;
            input.addEventListener('change', () => send({ op: 'set', key: c.key, value: input.value }));
          } else {
            input = document.createElement('input'); input.type = 'text'; input.value = c.value; input.readOnly = true;
          }
          input.id = 'control-' + c.key; input.disabled = !c.live; row.append(input);
          if (!c.live) value.textContent = note(c);
          row.append(value); return row;
        }
        function build(s) {
          const text = JSON.stringify(s); if (text === lastSetup) return; lastSetup = text; setup = s;
          $('preset').textContent = 'preset ' + s.preset;
          // Same keys, kinds and liveness: update the values in place (a slider being moved keeps
          // its element and its focus); else draw the controls anew.
          const shape = JSON.stringify(s.controls.map((c) => [c.key, c.kind, c.live, c.minimum, c.maximum, c.choices]));
          if (shape === lastShape) {
            for (const c of s.controls) {
              const input = $('control-' + c.key);
              if (!input || input === document.activeElement) continue;
              if (c.kind === 'toggle') input.checked = c.value === 'true'; else input.value = c.value;
              if (c.kind === 'number') input.parentElement.querySelector('.note').textContent = note(c);
            }
          } else {
            lastShape = shape;
            const open = new Set([...document.querySelectorAll('#sections details[open]')].map((d) => d.dataset.section));
            const sections = $('sections'); sections.textContent = '';
            const groups = new Map();
            for (const c of s.controls) {
              const name = c.key.split('.')[0];
              if (!groups.has(name)) {
                const d = document.createElement('details'); d.dataset.section = name;
                d.open = open.size ? open.has(name) : ['input', 'agc', 'monitor', 'backing', 'output'].includes(name);
                const sum = document.createElement('summary'); sum.textContent = name; d.append(sum);
                groups.set(name, d); sections.append(d);
              }
              groups.get(name).append(control(c));
            }
          }
          const list = $('presetlist'); const chosen = list.value; list.textContent = '';
          for (const name of s.presets) { const o = document.createElement('option'); o.textContent = name; list.append(o); }
          list.value = s.presets.includes(chosen) ? chosen : s.preset;
        }
        function connect() {
          const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
          socket = new WebSocket(scheme + location.host + '/ws?token=' + encodeURIComponent(token));
          socket.onopen = () => { $('link').textContent = 'live'; $('link').className = 'pill ok'; };
          socket.onclose = () => { $('link').textContent = 'disconnected'; $('link').className = 'pill'; setTimeout(connect, 1000); };
          socket.onmessage = (event) => {
            const message = JSON.parse(event.data);
            if (message.type === 'meters') show(message.meters);
            else if (message.type === 'setup') build(message.setup);
            else if (message.type === 'reply') for (const line of message.reply.lines) log(line, !message.reply.ok);
          };
        }
        $('record').onclick = () => {
          const start = $('record').dataset.recording !== 'true';
          const taps = [...document.querySelectorAll('#taps input:checked')].map(box => box.value);
          send(start && taps.length ? { op: 'record', start, taps } : { op: 'record', start });
        };
        $('pause').onclick = () => send({ op: 'pause' });
        $('unmute').onclick = () => send({ op: 'unmute' });
        $('mute').onclick = () => send({ op: 'mute', on: $('mute').dataset.on !== 'true' });
        $('load').onclick = () => send({ op: 'load', preset: $('presetlist').value });
        $('save').onclick = () => send({ op: 'save', name: $('savename').value });
        connect(); requestAnimationFrame(drawHistory);
        </script></body></html>

        """
}
