#!/usr/bin/env python3
"""Checks eval-summary.py on a tiny evaluate.py result (fixtures/eval-summary.json): one real set at
48 kHz, seeds 1 and 7, voicerack and the oracle in both, WebRTC in seed 7 only.

    python3 scripts/dev/test-eval-summary.py        (scripts/test.sh runs it)
"""
import importlib.util
import json
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("eval_summary", HERE / "eval-summary.py")
summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summary)
FIXTURE = json.loads((HERE / "fixtures" / "eval-summary.json").read_text())


def row(table, label):
    return next(r for r in table["rows"] if r["label"] == label)


class EvalSummaryTests(unittest.TestCase):
    def setUp(self):
        self.tables = summary.summarise(FIXTURE)
        self.table = self.tables[0]

    def test_one_table_per_set_and_rate_with_both_seeds(self):
        self.assertEqual([(t["set"], t["rate"], t["seeds"]) for t in self.tables], [("real", 48000, [1, 7])])

    def test_voicerack_first_and_the_oracle_last(self):
        self.assertEqual(self.table["systems"], ["voicerack-echo-cancel", "webrtc", "oracle"])

    def test_each_seed_and_their_mean(self):
        fe = row(self.table, "far end alone, ERLE dB")["values"]["voicerack-echo-cancel"]
        self.assertEqual(fe, {"1": 40.0, "7": 44.0, "mean": 42.0})

    def test_double_talk_rows_average_the_double_talk_scenarios_only(self):
        echo = row(self.table, "AECMOS echo, double talk (mean of 5)")["values"]["voicerack-echo-cancel"]
        self.assertAlmostEqual(echo["1"], 3.5)        # double_talk 4.0 and long_delay 3.0
        self.assertAlmostEqual(echo["mean"], 3.7)

    def test_shortfall_is_the_worst_scenario_against_the_oracle_of_the_same_seed(self):
        gap = row(self.table, summary.SHORTFALL)["values"]
        self.assertAlmostEqual(gap["voicerack-echo-cancel"]["1"], 1.4)   # long delay: 4.4 − 3.0
        self.assertAlmostEqual(gap["oracle"]["mean"], 0.0)

    def test_a_missing_seed_is_a_dash_and_left_out_of_the_mean(self):
        ns = row(self.table, "DNSMOS OVRL, noise only (pink, fan, babble)")["values"]["webrtc"]
        self.assertEqual(ns, {"1": None, "7": 1.9, "mean": 1.9})
        self.assertIn("| 1.90 (– / 1.90) |", summary.markdown(self.tables))

    def test_problems_are_counted_over_the_seeds(self):
        self.assertEqual(row(self.table, summary.PROBLEMS)["values"]["voicerack-echo-cancel"],
                         {"1": 1, "7": 0, "mean": 1})

    def test_a_set_of_synthetic_voices_is_syn(self):
        syn = json.loads(json.dumps(FIXTURE[0]))
        syn["set"]["voices"] = ["espeak:en", "festival:cmu_us_slt_arctic_hts"]
        self.assertEqual(summary.set_name(syn), "syn")

    def test_a_row_without_figures_reads_as_a_dash(self):
        self.assertIn("| clock drift, ERLE dB | – | – | – |", summary.markdown(self.tables))


if __name__ == "__main__":
    unittest.main()
