/// The page's script for the rack and the settings, from each setup message.
///
/// The chain's units are cards in processing order, each with its bypass switch, its meters
/// (`PanelUnitMeterScript`) and its own controls; a card moves by drag and drop or by its up and down buttons (reachable by
/// keyboard), units are added from a list and removed with a button. Every structural change is
/// one `set chain.order` request, which the session applies live (a new chain built off the
/// process thread and swapped in). Other keys stay grouped by section under "Settings".
///
/// - Realtime: never; a constant.
enum PanelRackScript {
    static let js = """
        let lastSetup = '', lastShape = '', dragged = null;
        function step(c) {
          const span = c.maximum - c.minimum;
          return span <= 2 ? 0.01 : span <= 20 ? 0.1 : span <= 200 ? 0.5 : 1;
        }
        function unitText(c, value) { return value + (c.unit ? ' ' + c.unit : ''); }
        function note(c) {
          const shown = c.kind === 'number' ? unitText(c, c.value) : '';
          return c.live ? shown : (shown ? shown + ' · ' : '') + 'restart';
        }
        function isOn(c) { return c.onValue ? Number(c.value) >= 0.5 : c.value === 'true'; }
        function control(c) {
          const row = document.createElement('div');
          row.className = 'control' + (c.live ? '' : ' restart'); row.dataset.key = c.key; row.title = c.help;
          const label = document.createElement('label'); label.textContent = c.label || c.key.split('.')[1];
          label.htmlFor = 'control-' + c.key; row.append(label);
          const value = document.createElement('span'); value.className = 'note';
          let input;
          if (c.kind === 'number') {
            input = document.createElement('input'); input.type = 'range';
            input.min = c.minimum; input.max = c.maximum; input.step = step(c); input.value = c.value;
            value.textContent = note(c);
            input.addEventListener('input', () => value.textContent = unitText(c, input.value));
            input.addEventListener('change', () => send({ op: 'set', key: c.key, value: input.value }));
          } else if (c.kind === 'toggle') {
            input = document.createElement('input'); input.type = 'checkbox'; input.className = 'switch';
            input.setAttribute('role', 'switch'); input.checked = isOn(c);
            input.addEventListener('change', () => send({ op: 'set', key: c.key,
              value: input.checked ? (c.onValue || 'true') : (c.offValue || 'false') }));
          } else if (c.kind === 'choice') {
            input = document.createElement('select');
            c.choices.forEach((choice, i) => {
              const o = document.createElement('option'); o.value = choice;
              o.textContent = c.choiceLabels ? c.choiceLabels[i] : choice; input.append(o);
            });
            input.value = choiceValue(c);
            input.addEventListener('change', () => send({ op: 'set', key: c.key, value: input.value }));
          } else {
            input = document.createElement('input'); input.type = 'text'; input.value = c.value; input.readOnly = true;
          }
          input.id = 'control-' + c.key; input.disabled = !c.live; row.append(input);
          if (!c.live) value.textContent = note(c);
          row.append(value); return row;
        }
        // A numeric choice (the detector, 0 or 1) matches its running value as a number.
        function choiceValue(c) {
          return c.choices.find((x) => x === c.value || (!isNaN(x) && Number(x) === Number(c.value))) || c.value;
        }
        // The order asked for is the base of the next click until the session's setup says
        // what runs (a refused order comes back as the running one).
        function setChain(order) {
          send({ op: 'set', key: 'chain.order', value: order.length ? order.join(', ') : '""' });
          setup.chain = order;
        }
        function moved(order, from, to) {
          const next = order.slice(); const [name] = next.splice(from, 1); next.splice(to, 0, name); return next;
        }
        function button(text, label, action, disabled) {
          const b = document.createElement('button'); b.className = 'small'; b.textContent = text;
          b.setAttribute('aria-label', label); b.disabled = disabled; b.onclick = action; return b;
        }
        function unitCard(name, index, s, controls) {
          const card = document.createElement('div'); card.className = 'unit'; card.id = 'unit-' + name;
          card.dataset.unit = name; card.draggable = true;
          const head = document.createElement('div'); head.className = 'unit-head';
          const title = document.createElement('b'); title.textContent = (index + 1) + '. ' + name; head.append(title);
          const bypass = controls.find((c) => c.key === name + '.bypass');
          if (bypass) {
            const sw = control(bypass); sw.className = 'row'; sw.querySelector('label').textContent = 'bypass';
            head.append(sw); card.classList.toggle('bypassed', isOn(bypass));
          }
          const last = s.chain.length - 1;
          const at = () => setup.chain.indexOf(name);
          head.append(button('↑', 'move ' + name + ' up', () => { if (at() > 0) setChain(moved(setup.chain, at(), at() - 1)); }, index === 0));
          head.append(button('↓', 'move ' + name + ' down', () => {
            if (at() >= 0 && at() < setup.chain.length - 1) setChain(moved(setup.chain, at(), at() + 1));
          }, index === last));
          head.append(button('✕', 'remove ' + name, () => setChain(setup.chain.filter((u) => u !== name)), false));
          head.querySelectorAll('button').forEach((b, i) => b.id = ['up-', 'down-', 'remove-'][i] + name);
          card.append(head);
          unitMeterRows(card, name);
          for (const c of controls) if (c !== bypass) card.append(control(c));
          if (!controls.length) {
            const n = document.createElement('div'); n.className = 'note'; n.textContent = 'an LV2 unit: its controls are set by name (set ' + name + '.SYMBOL VALUE)';
            card.append(n);
          }
          card.addEventListener('dragstart', () => { dragged = name; card.classList.add('dragging'); });
          card.addEventListener('dragend', () => card.classList.remove('dragging'));
          card.addEventListener('dragover', (e) => e.preventDefault());
          card.addEventListener('drop', (e) => {
            e.preventDefault();
            if (dragged !== null && dragged !== name && at() >= 0) setChain(moved(setup.chain, setup.chain.indexOf(dragged), at()));
            dragged = null;
          });
          return card;
        }
        function drawRack(s) {
          const units = $('units'); units.textContent = '';
          s.chain.forEach((name, i) => units.append(unitCard(name, i, s, s.controls.filter((c) => c.key.startsWith(name + '.')))));
          if (!s.chain.length) { const n = document.createElement('div'); n.className = 'note'; n.textContent = 'no effect units: the voice goes from the echo canceller to the output'; units.append(n); }
          const add = $('addunit'); add.textContent = '';
          for (const name of s.units.filter((u) => !s.chain.includes(u))) { const o = document.createElement('option'); o.textContent = name; add.append(o); }
          $('add').disabled = !add.options.length;
        }
        $('add').onclick = () => {
          const unit = $('addunit').value;
          if (setup && unit && !setup.chain.includes(unit)) setChain(setup.chain.concat([unit]));
        };
        function drawSettings(s) {
          const inRack = (c) => c.key === 'chain.order' || s.chain.some((u) => c.key.startsWith(u + '.'));
          const open = new Set([...document.querySelectorAll('#sections details[open]')].map((d) => d.dataset.section));
          const sections = $('sections'); sections.textContent = '';
          const groups = new Map();
          for (const c of s.controls.filter((c) => !inRack(c))) {
            const name = c.key.split('.')[0];
            if (!groups.has(name)) {
              const d = document.createElement('details'); d.dataset.section = name;
              d.open = open.size ? open.has(name) : ['input', 'agc', 'monitor', 'backing', 'output'].includes(name);
              const sum = document.createElement('summary'); sum.textContent = name.replace(/_/g, ' '); d.append(sum);
              groups.set(name, d); sections.append(d);
            }
            groups.get(name).append(control(c));
          }
        }
        function build(s) {
          // The session's setup is the truth, even when unchanged (a refused chain order comes back).
          const text = JSON.stringify(s); setup = s; if (text === lastSetup) return; lastSetup = text;
          $('preset').textContent = 'preset ' + s.preset;
          // Same keys, kinds, liveness and chain: update the values in place (a slider being moved
          // keeps its element and its focus); else draw the rack and the settings anew.
          const shape = JSON.stringify([s.chain, s.controls.map((c) => [c.key, c.kind, c.live, c.minimum, c.maximum, c.choices])]);
          if (shape === lastShape) {
            for (const c of s.controls) {
              const input = $('control-' + c.key);
              const card = input && input.closest('.unit');
              if (card && c.key.endsWith('.bypass')) card.classList.toggle('bypassed', isOn(c));
              if (!input || input === document.activeElement) continue;
              if (c.kind === 'toggle') input.checked = isOn(c); else if (c.kind === 'choice') input.value = choiceValue(c); else input.value = c.value;
              if (c.kind === 'number') input.parentElement.querySelector('.note').textContent = note(c);
            }
          } else {
            lastShape = shape;
            drawRack(s); drawSettings(s);
          }
          const list = $('presetlist'); const chosen = list.value; list.textContent = '';
          for (const name of s.presets) { const o = document.createElement('option'); o.textContent = name; list.append(o); }
          list.value = s.presets.includes(chosen) ? chosen : s.preset;
        }

        """
}
