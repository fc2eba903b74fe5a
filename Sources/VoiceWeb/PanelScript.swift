/// The page's script for figures: the socket, the level meters, the echo, stream and
/// recording cards and the history canvas. The rack and settings are `PanelRackScript`'s.
///
/// Meters run from -60 to 0 dBFS in 2 dB segments; a segment's colour is its own level (green
/// below -18 dBFS, yellow to -6, red above), so a quiet signal never shows red. Peaks are held
/// for 2 s, and a full-scale peak lights the clip lamp for 2 s.
///
/// - Realtime: never; a constant.
enum PanelScript {
    static let js = """
        const $ = (id) => document.getElementById(id);
        const token = new URLSearchParams(location.search).get('token') || '';
        let socket, nextId = 1, setup = null;
        const meters = {}, history = [];
        // The history is drawn again only when a figure came or the canvas changed size: the
        // page's own CPU shares the machine with the audio (a frame redrawn unchanged at the
        // screen's rate is work for nothing).
        let historyDirty = true;
        const HISTORY_SECONDS = 30, FLOOR = -60, STEP = 2, TICKS = [-60, -48, -36, -24, -18, -12, -6, 0];

        function log(text, bad) {
          const line = document.createElement('div');
          line.textContent = text; if (bad) line.className = 'bad';
          $('log').prepend(line);
          while ($('log').childElementCount > 50) $('log').lastChild.remove();
        }
        function send(request) {
          if (!socket || socket.readyState !== 1) { log('not connected', true); return; }
          request.id = nextId++; socket.send(JSON.stringify(request));
        }
        function dbText(db) { return db <= -119 ? '-inf' : db.toFixed(1); }
        function position(db) { return Math.max(0, Math.min(100, (db - FLOOR) / -FLOOR * 100)); }
        // A segment's colour class from its own level (its lower edge, dBFS).
        function zone(db) { return db < -18 ? 'g' : db < -6 ? 'y' : 'r'; }
        function segments(box) {
          for (let db = FLOOR; db < 0; db += STEP) {
            const s = document.createElement('i'); s.className = 'seg ' + zone(db); s.dataset.db = db; box.append(s);
          }
        }
        function buildMeters() {
          for (const box of document.querySelectorAll('.meter .bar')) segments(box);
          for (const db of TICKS) {
            const t = document.createElement('span'); t.textContent = db; t.style.left = position(db) + '%';
            $('ticks').append(t);
          }
        }
        function meter(name, rms, peak) {
          const m = meters[name] || (meters[name] = { hold: -120, holdAt: 0 });
          const box = $('meter-' + name); const now = performance.now();
          if (peak >= m.hold || now - m.holdAt > 2000) { m.hold = peak; m.holdAt = now; }
          for (const s of box.querySelectorAll('.seg')) {
            const low = +s.dataset.db;
            s.classList.toggle('lit', rms > low);
            s.classList.toggle('hold', m.hold > low && m.hold <= low + STEP && m.hold > rms);
          }
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
        const STREAM_WORDS = { none: 'no stream', off: 'off', connecting: 'connecting', live: 'on air',
          reconnecting: 'reconnecting', stopped: 'stopped' };
        function streamCard(m) {
          const state = $('streamstate'); state.textContent = STREAM_WORDS[m.streamState] || m.streamState;
          state.className = 'stream-state ' + m.streamState; state.dataset.state = m.streamState;
          $('streamtime').textContent = clock(m.streamSecondsOnAir);
          $('streamreconnects').textContent = m.streamReconnects;
          $('streamlost').textContent = m.streamSecondsLost.toFixed(1) + ' s';
          $('streamreason').textContent = m.streamState === 'none' ? 'start voicerack with --stream URL to stream'
            : m.streamReason;
          const running = ['connecting', 'live', 'reconnecting'].includes(m.streamState);
          $('streamstart').disabled = m.streamState === 'none' || running;
          $('streamstop').disabled = !running;
          $('onair').hidden = m.streamState !== 'live';
          $('onair').className = 'pill on';
        }
        function show(m) {
          meter('mic', m.micDB, m.micPeakDB);
          meter('far', m.farDB, m.farPeakDB);
          meter('voice', m.voiceDB, m.voicePeakDB);
          meter('monitor', m.monitorDB, m.monitorPeakDB);
          unitMeters(m.units || []);
          const value = (key) => { const c = setup && setup.controls.find((c) => c.key === key); return c && c.value; };
          const verdict = value('echo_canceller.enabled') === 'false' ? 'off' : m.echoVerdict;
          const v = $('verdict'); v.textContent = verdict;
          v.className = 'verdict ' + verdict.split(/[ :]/)[0];
          $('erle').textContent = m.echoRemovalDB == null ? '–' : m.echoRemovalDB.toFixed(0) + ' dB';
          $('delay').textContent = m.delayMS == null ? '–' : m.delayMS.toFixed(0) + ' ms';
          $('drift').textContent = m.driftPPM == null ? '–' : Math.round(m.driftPPM) + ' ppm';
          $('vad').classList.toggle('lit', m.voiceActive);
          $('doubletalk').classList.toggle('lit', m.doubleTalk);
          $('leveller').textContent = (m.levellerGainDB >= 0 ? '+' : '') + m.levellerGainDB.toFixed(1) + ' dB';
          $('loudness').textContent = m.shortTermLUFS == null ? '–' : m.shortTermLUFS.toFixed(1) + ' LUFS'
            + (m.integratedLUFS == null ? '' : ' (take ' + m.integratedLUFS.toFixed(1) + ')');
          $('load').textContent = m.dspLoadPercent.toFixed(0) + ' %';
          $('xruns').textContent = m.xruns; $('overruns').textContent = m.overruns;
          $('reduction').textContent = m.micDB <= -119 ? '–' : (m.voiceDB - m.micDB).toFixed(1) + ' dB';
          // The guard's unmute only means something while the monitor is on and muted.
          $('muted').hidden = !m.monitorMuted;
          $('unmute').hidden = !(m.monitorMuted && value('monitor.enabled') !== 'false');
          $('mute').textContent = m.voiceMuted ? 'Unmute voice' : 'Mute voice';
          $('mute').dataset.on = m.voiceMuted;
          const rec = $('rec'); rec.textContent = m.recording ? 'REC ' + clock(m.recordingSeconds) : 'not recording';
          rec.classList.toggle('on', m.recording);
          $('record').textContent = m.recording ? '■ Stop' : '● Record';
          $('record').classList.toggle('on', m.recording); $('record').dataset.recording = m.recording;
          $('rectime').textContent = clock(m.recording ? m.recordingSeconds : 0);
          $('recxruns').textContent = m.framesNotRun + ' (' + m.xruns + ' xrun' + (m.xruns === 1 ? ')' : 's)');
          $('lost').textContent = m.framesLost + ' frames';
          $('files').textContent = m.recordingFiles.join(', ');
          $('backingstate').textContent = m.backing ? m.backing + ', ' + clock(m.backingSeconds) + ' played' : 'no backing track';
          streamCard(m);
          history.push([m.time, m.micDB, m.voiceDB, m.echoRemovalDB]);
          while (history.length && history[0][0] < m.time - HISTORY_SECONDS) history.shift();
          historyDirty = true;
          window.voicerackUpdates = (window.voicerackUpdates || 0) + 1;
        }
        function drawHistory() {
          requestAnimationFrame(drawHistory);
          const c = $('history');
          const ratio = window.devicePixelRatio || 1;
          const w = Math.round(c.clientWidth * ratio), h = Math.round(c.clientHeight * ratio);
          if (c.width !== w || c.height !== h) { c.width = w; c.height = h; historyDirty = true; }
          if (!historyDirty) return;
          historyDirty = false;
          const g = c.getContext('2d');
          g.clearRect(0, 0, w, h);
          // Left scale: dBFS of mic and voice; right scale: dB of echo removed (0 to 60).
          const pad = 30 * ratio, plot = w - 2 * pad;
          g.font = (11 * ratio) + 'px system-ui, sans-serif'; g.lineWidth = 1; g.textBaseline = 'middle';
          for (let step = 0; step <= 5; step++) {
            const y = Math.min(h - 6 * ratio, Math.max(6 * ratio, h - step / 5 * h));
            g.strokeStyle = '#2e353d'; g.beginPath(); g.moveTo(pad, y); g.lineTo(w - pad, y); g.stroke();
            g.fillStyle = '#8a96a3'; g.textAlign = 'right'; g.fillText(String(-60 + step * 12), pad - 4 * ratio, y);
            g.fillStyle = '#e0c341'; g.textAlign = 'left'; g.fillText(String(step * 12), w - pad + 4 * ratio, y);
          }
          if (!history.length) return;
          const end = history[history.length - 1][0];
          const x = (t) => pad + plot - (end - t) / HISTORY_SECONDS * plot;
          const line = (index, color, scale) => {
            g.strokeStyle = color; g.lineWidth = 2 * ratio; g.beginPath(); let started = false;
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
        $('streamstart').onclick = () => send({ op: 'stream', on: true });
        $('streamstop').onclick = () => send({ op: 'stream', on: false });
        $('load').onclick = () => send({ op: 'load', preset: $('presetlist').value });
        $('save').onclick = () => send({ op: 'save', name: $('savename').value });
        buildMeters(); connect(); requestAnimationFrame(drawHistory);

        """
}
