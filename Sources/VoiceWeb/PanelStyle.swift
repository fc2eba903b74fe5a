/// The panel page's style sheet: dark, one column at phone width (no sideways scroll at
/// 412 px), meters of 2 dB segments coloured by their own level.
///
/// - Realtime: never; a constant.
enum PanelStyle {
    static let css = """
        :root { --bg:#15181c; --panel:#1f242a; --line:#2e353d; --text:#dde3e9; --dim:#8a96a3;
          --green:#3fbf6f; --yellow:#e0c341; --red:#e5484d; --blue:#4ea1ff; --amber:#e8a33d; }
        * { box-sizing: border-box; }
        html, body { overflow-x:hidden; }
        body { margin:0; background:var(--bg); color:var(--text); font:14px/1.35 system-ui, sans-serif; }
        header { display:flex; flex-wrap:wrap; gap:8px 16px; align-items:center; padding:10px 16px;
          background:var(--panel); border-bottom:1px solid var(--line); }
        header h1 { font-size:18px; margin:0; letter-spacing:.5px; }
        .pill { padding:2px 10px; border-radius:999px; background:var(--line); color:var(--dim); }
        .pill.on { background:var(--red); color:#fff; }
        .pill.ok { background:#1d4d2f; color:#bff0cf; }
        main { display:grid; grid-template-columns: repeat(auto-fit, minmax(min(360px, 100%), 1fr)); gap:12px;
          padding:12px; }
        section { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:10px 12px;
          min-width:0; }
        section h2 { font-size:13px; text-transform:uppercase; color:var(--dim); margin:0 0 8px; letter-spacing:1px; }
        .wide { grid-column: 1 / -1; }
        .meter, .scale { display:grid; grid-template-columns: 64px minmax(0, 1fr) 52px 16px; gap:8px;
          align-items:center; margin:6px 0; }
        .bar { position:relative; display:flex; gap:1px; height:16px; }
        .seg { flex:1; border-radius:1px; opacity:.16; }
        .seg.g { background:var(--green); } .seg.y { background:var(--yellow); } .seg.r { background:var(--red); }
        .seg.lit { opacity:1; }
        .seg.hold { opacity:1; outline:1px solid #fff; }
        .unit-meter { margin:4px 0; }
        .unit-meter .bar { height:10px; }
        .bar.reduction { background:#2a2418; border-radius:1px; justify-content:flex-end; }
        .bar.reduction .fill { display:block; height:100%; width:0; background:var(--amber); }
        .ticks { position:relative; height:14px; font-size:11px; color:var(--dim); }
        .ticks span { position:absolute; transform:translateX(-50%); }
        .ticks span:first-child { transform:none; } .ticks span:last-child { transform:translateX(-100%); }
        .db { text-align:right; font-variant-numeric: tabular-nums; }
        .lamp { width:14px; height:14px; border-radius:50%; background:#3a2020; display:inline-block; }
        .lamp.lit { background:var(--red); box-shadow:0 0 6px var(--red); }
        .lamp.green { background:#1e3326; } .lamp.green.lit { background:var(--green); box-shadow:0 0 6px var(--green); }
        .lamp.amber { background:#3a301e; } .lamp.amber.lit { background:var(--amber); box-shadow:none; }
        .figures { display:grid; grid-template-columns: repeat(auto-fit, minmax(96px, 1fr)); gap:6px 12px; }
        .fig span { display:block; color:var(--dim); font-size:12px; }
        .fig b { font-size:18px; font-weight:600; font-variant-numeric: tabular-nums; }
        .verdict { font-size:22px; font-weight:700; }
        .verdict.good { color:var(--green); } .verdict.fair { color:var(--yellow); }
        .verdict.poor { color:var(--red); } .verdict.off, .verdict.measuring, .verdict.no, .verdict.far { color:var(--dim); }
        button { background:#2b333c; color:var(--text); border:1px solid #3b4550; border-radius:6px; padding:6px 12px;
          font:inherit; cursor:pointer; }
        button:disabled { opacity:.4; cursor:default; }
        button.rec { background:#5a1e22; border-color:#7c2a30; }
        button.rec.on { background:var(--red); color:#fff; }
        button.small { padding:2px 8px; }
        .row { display:flex; gap:8px; align-items:center; flex-wrap:wrap; margin:6px 0; }
        canvas { display:block; width:100%; height:160px; background:#0d0f12; border-radius:4px; }
        .legend span { margin-right:12px; } .legend i { display:inline-block; width:10px; height:3px; margin-right:4px; vertical-align:middle; }
        details { border-top:1px solid var(--line); padding:4px 0; }
        summary { cursor:pointer; color:var(--blue); padding:4px 0; }
        .control { display:grid; grid-template-columns: minmax(0, 12em) minmax(0, 1fr) minmax(0, 7em); gap:8px;
          align-items:center; margin:4px 0; }
        .control label { overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
        .control.restart { opacity:.5; }
        .note { color:var(--dim); font-size:12px; }
        input[type=range] { width:100%; min-width:0; }
        select, input[type=text] { background:#0d0f12; color:var(--text); border:1px solid var(--line); border-radius:4px;
          padding:4px; max-width:100%; min-width:0; }
        input.switch { appearance:none; width:34px; height:18px; border-radius:9px; background:#3b4550; position:relative;
          cursor:pointer; margin:0; }
        input.switch::after { content:''; position:absolute; top:2px; left:2px; width:14px; height:14px; border-radius:50%;
          background:#c9d1d9; transition:left .1s; }
        input.switch:checked { background:var(--blue); } input.switch:checked::after { left:18px; }
        .unit { border:1px solid var(--line); border-radius:6px; padding:6px 8px; margin:6px 0; background:#1a1f24; }
        .unit.bypassed { opacity:.6; }
        .unit.dragging { outline:2px dashed var(--blue); }
        .unit-head { display:flex; flex-wrap:wrap; gap:6px; align-items:center; }
        .unit-head b { flex:1; min-width:6em; cursor:grab; }
        .stream-state { font-size:20px; font-weight:700; color:var(--dim); }
        .stream-state.live { color:var(--green); } .stream-state.reconnecting, .stream-state.connecting { color:var(--yellow); }
        .stream-state.stopped { color:var(--red); }
        #log { font:12px ui-monospace, monospace; color:var(--dim); max-height:90px; overflow:auto; white-space:pre-wrap;
          overflow-wrap:anywhere; }
        #log .bad { color:var(--red); }
        #files { overflow-wrap:anywhere; }
        @media (max-width: 520px) {
          main { padding:6px; gap:8px; }
          .meter, .scale { grid-template-columns: 52px minmax(0, 1fr) 44px 14px; gap:4px; }
          .control { grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); }
          .control .note { grid-column: 2; }
        }
        """
}
