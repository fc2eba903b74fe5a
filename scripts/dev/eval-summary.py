#!/usr/bin/env python3
"""The yardstick's summary: one table per speech set and rate, seeds side by side.

    python3 scripts/dev/eval-summary.py [--md OUT.md] [--json OUT.json] RESULTS.json ...

Reads the JSON that the kit's `evaluate.py --json` writes (a list of results, one per system, each
with the set's seed and voices and one row per scenario) and prints, for each (set, rate), the
rows issue 36 asks for: ERLE where echo is hardest, AECMOS and DNSMOS where listeners would judge,
double-talk PESQ and STOI. A set is `real` when its voices are recordings (`file:` talkers),
`syn` otherwise. Each cell reads `mean (seed a / seed b)`: the mean over the seeds of each seed's
figure, and each seed's figure is a mean over the scenarios the row names. Uses only the standard
library (`scripts/test.sh` runs its test, `scripts/dev/test-eval-summary.py`, without the kit).
"""
import argparse
import json
import sys
from pathlib import Path

DT = ("double_talk", "dt_nonlinear", "dt_noisy", "drift", "long_delay")
NS = ("ns_pink", "ns_fan", "ns_babble")
# (label, scenario types averaged over, key in a scenario's row, digits)
ROWS = [
    ("far end alone, ERLE dB", ("fe_single",), "erle_db", 1),
    ("nonlinear speaker, ERLE dB", ("dt_nonlinear",), "erle_db", 1),
    ("clock drift, ERLE dB", ("drift",), "erle_db", 1),
    ("long delay (250 ms), ERLE dB", ("long_delay",), "erle_db", 1),
    ("path change, ERLE dB in its first second", ("echo_path_change",), "erle_after_change_1s_db", 1),
    ("AECMOS echo, far end alone", ("fe_single",), "aecmos_echo", 2),
    ("AECMOS echo, double talk (mean of 5)", DT, "aecmos_echo", 2),
    ("AECMOS degradation, double talk (mean of 5)", DT, "aecmos_deg", 2),
    ("AECMOS echo, long delay (250 ms)", ("long_delay",), "aecmos_echo", 2),
    ("AECMOS degradation, long delay (250 ms)", ("long_delay",), "aecmos_deg", 2),
    ("DNSMOS OVRL, noise only (pink, fan, babble)", NS, "dnsmos_ovrl", 2),
    ("DNSMOS OVRL, noisy double talk", ("dt_noisy",), "dnsmos_ovrl", 2),
    ("PESQ, double talk", ("double_talk",), "pesq_dt", 2),
    ("STOI, double talk", ("double_talk",), "stoi_dt", 2),
    ("PESQ, double talk (mean of 5)", DT, "pesq_dt", 2),
    ("STOI, double talk (mean of 5)", DT, "stoi_dt", 2),
]
SHORTFALL = "AECMOS echo, double talk: most below the oracle (worst of 5)"
PROBLEMS = "scenarios with problems (total over the seeds)"
ORACLE = "oracle"


def set_name(res):
    return "real" if any(str(v).startswith("file:") for v in res["set"]["voices"]) else "syn"


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def scenario_mean(res, types, key):
    return mean([r.get(key) for r in res["scenarios"] if r["type"] in types])


def oracle_shortfall(res, oracle):
    """Largest (oracle − system) AECMOS echo over the double-talk scenarios, or None."""
    if oracle is None:
        return None
    ref = {r["scenario"]: r.get("aecmos_echo") for r in oracle["scenarios"]}
    gaps = [ref[r["scenario"]] - r["aecmos_echo"] for r in res["scenarios"]
            if r["type"] in DT and r.get("aecmos_echo") is not None and ref.get(r["scenario"]) is not None]
    return max(gaps) if gaps else None


def system_order(name):
    """voicerack first, then the references in the issue's order, the oracle last."""
    for i, prefix in enumerate(("voicerack", "speexdsp-ref", "webrtc", "dfn3")):
        if name.startswith(prefix):
            return (i, name)
    return (5 if name == ORACLE else 4, name)


def group(results):
    """{(set, rate): {seed: {system: result}}}; a later result replaces an earlier one."""
    tables = {}
    for res in results:
        key = (set_name(res), int(res["rate"]))
        tables.setdefault(key, {}).setdefault(int(res["set"]["seed"]), {})[res["system"]] = res
    return tables


def summarise(results):
    """One table per (set, rate): systems, seeds and, per row, each system's per-seed values and mean."""
    out = []
    for (name, rate), by_seed in sorted(group(results).items(), key=lambda kv: (kv[0][0] != "syn", -kv[0][1])):
        seeds = sorted(by_seed)
        systems = sorted({s for runs in by_seed.values() for s in runs}, key=system_order)
        rows = []
        for label, types, key, digits in ROWS:
            rows.append({"label": label, "key": key, "types": list(types), "digits": digits, "values": {
                s: per_seed(by_seed, seeds, s, lambda res, runs, t=types, k=key: scenario_mean(res, t, k))
                for s in systems}})
        rows.append({"label": SHORTFALL, "key": "aecmos_echo", "types": list(DT), "digits": 2, "values": {
            s: per_seed(by_seed, seeds, s, lambda res, runs: oracle_shortfall(res, runs.get(ORACLE)))
            for s in systems}})
        rows.append({"label": PROBLEMS, "key": "problems", "types": [], "digits": 0, "values": {
            s: per_seed(by_seed, seeds, s, lambda res, runs: sum(1 for r in res["scenarios"] if r.get("problems")),
                        total=True)
            for s in systems}})
        out.append({"set": name, "rate": rate, "seeds": seeds, "systems": systems, "rows": rows})
    return out


def per_seed(by_seed, seeds, system, figure, total=False):
    """{"<seed>": value or None, ..., "mean": mean over the seeds that have a value}.

    figure(result, that seed's results by system) gives one seed's value; with total, the seeds'
    values are summed (under "mean" still, so every row reads alike)."""
    vals = {}
    for seed in seeds:
        runs = by_seed[seed]
        res = runs.get(system)
        vals[str(seed)] = None if res is None else figure(res, runs)
    have = [vals[str(s)] for s in seeds if vals[str(s)] is not None]
    vals["mean"] = (sum(have) if total else mean(have)) if have else None
    return vals


def fmt(v, digits):
    return "–" if v is None else f"{v:.{digits}f}"


def cell(vals, seeds, digits):
    if len(seeds) == 1 or vals["mean"] is None:
        return fmt(vals["mean"], digits)
    return f"{fmt(vals['mean'], digits)} ({' / '.join(fmt(vals[str(s)], digits) for s in seeds)})"


def markdown(tables):
    lines = []
    for t in tables:
        seeds = t["seeds"]
        what = (f"mean of seeds {' and '.join(map(str, seeds))} ({' / '.join(f'seed {s}' for s in seeds)})"
                if len(seeds) > 1 else f"seed {seeds[0]}")
        lines += [f"**{t['set']} set, {t['rate'] // 1000} kHz** — each cell: {what}", "",
                  "| | " + " | ".join(t["systems"]) + " |", "|---|" + "---|" * len(t["systems"])]
        for row in t["rows"]:
            lines.append(f"| {row['label']} | " + " | ".join(
                cell(row["values"][s], seeds, row["digits"]) for s in t["systems"]) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", help="evaluate.py --json files")
    ap.add_argument("--md", help="also write the tables here")
    ap.add_argument("--json", help="also write the figures here")
    a = ap.parse_args(argv)
    results = [res for f in a.results for res in json.loads(Path(f).read_text())]
    tables = summarise(results)
    md = markdown(tables)
    print(md)
    if a.md:
        Path(a.md).write_text(md)
    if a.json:
        Path(a.json).write_text(json.dumps(tables, indent=1))


if __name__ == "__main__":
    sys.exit(main())
