/// The page's script for each rack unit's meters: the unit's output peak, drawn as the main
/// meters are (`PanelScript`: -60 to 0 dBFS in 2 dB segments, each coloured by its own level,
/// green below -18 dBFS, yellow to -6, red above; peak hold and clip lamp), and, for a dynamics
/// unit, its gain reduction: a bar on its own 0 to 24 dB scale that grows from its 0 dB end
/// (the right, where the level meter's 0 dBFS is) towards the left as more gain is taken off.
///
/// - Realtime: never; a constant.
enum PanelUnitMeterScript {
    static let js = """
        const REDUCTION_SCALE = 24;
        // The meter rows of a unit's card: its output, and a gain reduction row that stays
        // hidden until the session says the unit reduces gain.
        function unitMeterRows(card, name) {
          const out = document.createElement('div'); out.className = 'meter unit-meter'; out.id = 'meter-unit-' + name;
          const label = document.createElement('span'); label.textContent = 'out';
          const bar = document.createElement('div'); bar.className = 'bar'; segments(bar);
          const db = document.createElement('span'); db.className = 'db'; db.id = 'unit-' + name + '-db'; db.textContent = '–';
          const lamp = document.createElement('span'); lamp.className = 'lamp'; lamp.title = 'clip';
          out.append(label, bar, db, lamp);
          const gr = document.createElement('div'); gr.className = 'meter unit-meter'; gr.id = 'gr-' + name; gr.hidden = true;
          const grLabel = document.createElement('span'); grLabel.textContent = 'gain red.';
          const grBar = document.createElement('div'); grBar.className = 'bar reduction';
          const fill = document.createElement('i'); fill.className = 'fill'; grBar.append(fill);
          const grDB = document.createElement('span'); grDB.className = 'db'; grDB.id = 'gr-' + name + '-db';
          gr.append(grLabel, grBar, grDB, document.createElement('span'));
          card.append(out, gr);
        }
        function unitMeters(units) {
          for (const u of units) {
            if (!$('meter-unit-' + u.unit)) continue;
            meter('unit-' + u.unit, u.peakDB, u.peakDB);
            const row = $('gr-' + u.unit); const reduction = u.reductionDB;
            row.hidden = reduction == null;
            if (reduction == null) continue;
            // Under 0.05 dB (a release still fading out) reads, and draws, as none.
            const shown = reduction < 0.05 ? 0 : Math.min(REDUCTION_SCALE, reduction);
            row.querySelector('.fill').style.width = (shown / REDUCTION_SCALE * 100) + '%';
            const text = $('gr-' + u.unit + '-db');
            text.textContent = reduction < 0.05 ? '0.0' : '−' + reduction.toFixed(1);
            text.dataset.db = reduction;
          }
        }

        """
}
