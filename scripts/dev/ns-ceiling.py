#!/usr/bin/env python3
"""How far a classical noise suppressor can lift the yardstick's noise-suppression PESQ.

Runs a log-spectral-amplitude suppressor (Ephraim and Malah's log-MMSE gain with the
decision-directed a-priori SNR, gain floor FLOOR dB) over the mic of the yardstick's
noise-only scenarios (08 pink, 09 fan, 10 babble) and scores it with the yardstick's own
`metrics.score` (PESQ gain over the unprocessed mic, the "NS dPESQ" of scripts/eval.sh).
Each row changes one thing:

  oracle-32ms      the true long-term noise spectrum (from the scenario's noise.wav), a 32 ms
                   Hann window at half overlap; non-causal, 16 ms more latency than voicerack
                   has: what the method reaches when neither the noise estimate nor the latency
                   limits it
  oracle-frame     the true spectrum, at the latency the preprocessor already has: N-sample hop
                   (N = 8 ms, echo-cancel's frame) and an asymmetric window (4N-sample analysis,
                   2N-sample synthesis), so the output lags by exactly N
  estimated-frame  the same framing with the noise spectrum estimated from the mic alone:
                   frames whose 200-4000 Hz power is under the running 20th percentile of that
                   power plus 4 dB update the spectrum (0.5 s time constant)
  adaptive-frame   the same framing, estimate and floor chosen by how steady the noise is (the
                   spread between the 2nd and 10th percentiles of the last 4 s of frame powers:
                   ~0.5 dB for pink or fan noise, 2.5-3 dB for babble). Steady noise: each bin's
                   log power averaged over the gated frames (2 s) plus 1.5 dB, floor -22 dB.
                   Babble: each bin's power averaged over frames up to 8 dB over the percentile
                   (1.5 s), so the estimate reads high, with a shallow floor, -12 dB; in between
                   both blend. --floor-db does not apply to this row

Usage (the scenarios are the ones scripts/eval.sh generates):
  python3 scripts/dev/ns-ceiling.py [--scenarios DIR] [--eval DIR] [--floor-db -20] [--methods a,b]
"""
import argparse
import os
import sys
import tempfile
from collections import deque
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import istft, stft
from scipy.special import exp1

NOISE_SCENARIOS = ("08_ns_pink", "09_ns_fan", "10_ns_babble")
FRAME_S = 0.008


def log_mmse_gain(power, noise, previous_clean, floor):
    """One frame's log-MMSE gains; previous_clean is the last frame's |clean|^2 estimate or None."""
    gamma = np.minimum(power / (noise + 1e-20), 1e4)
    if previous_clean is None:
        xi = np.maximum(gamma - 1, 0)
    else:
        xi = 0.98 * previous_clean / (noise + 1e-20) + 0.02 * np.maximum(gamma - 1, 0)
    xi = np.maximum(xi, 1e-3)
    v = xi * gamma / (1 + xi)
    return np.clip(xi / (1 + xi) * np.exp(0.5 * exp1(np.maximum(v, 1e-8))), floor, 1.0)


def oracle_32ms(mic, noise, rate, floor):
    """Non-causal STFT suppression with the true long-term noise spectrum."""
    size = int(0.032 * rate)
    _, _, spectrum = stft(mic, rate, nperseg=size)
    _, _, noise_spectrum = stft(noise, rate, nperseg=size)
    noise_power = np.mean(np.abs(noise_spectrum) ** 2, axis=1)
    out, previous = np.zeros_like(spectrum), None
    for k in range(spectrum.shape[1]):
        power = np.abs(spectrum[:, k]) ** 2
        gain = log_mmse_gain(power, noise_power, previous, floor)
        out[:, k] = gain * spectrum[:, k]
        previous = np.abs(out[:, k]) ** 2
    _, y = istft(out, rate, nperseg=size)
    return y[: len(mic)], 0.0


def asymmetric_windows(hop):
    """Analysis window of 4 hops (long rise, short fall) and a synthesis window over the last 2."""
    long_rise = np.sqrt(np.hanning(6 * hop + 1)[: 6 * hop])[: 3 * hop]
    short_fall = np.sqrt(np.hanning(2 * hop + 1)[: 2 * hop])[hop:]
    analysis = np.concatenate([long_rise, short_fall])
    synthesis = np.zeros(4 * hop)
    synthesis[2 * hop :] = np.hanning(2 * hop + 1)[: 2 * hop] / np.maximum(analysis[2 * hop :], 1e-6)
    return analysis, synthesis


class PercentileGate:
    """A frame's 200-4000 Hz level (dB) against its running 20th percentile."""

    def __init__(self, rate, size):
        freqs = np.arange(size // 2 + 1) * rate / size
        self.band = (freqs >= 200) & (freqs <= 4000)
        self.floor_db = None

    def level(self, power):
        """This frame's level in dB; moves the percentile: 0.06 dB up per frame above it, 0.24 down."""
        level = 10 * np.log10(np.sum(power[self.band]) + 1e-20)
        if self.floor_db is None:
            self.floor_db = level
        self.floor_db += 0.06 if level > self.floor_db else -0.24
        return level


class QuantileNoiseTracker(PercentileGate):
    """Noise spectrum from frames whose band power sits near its running 20th percentile."""

    def __init__(self, rate, size):
        super().__init__(rate, size)
        self.smoothing = np.exp(-FRAME_S / 0.5)
        self.noise = None

    def update(self, power):
        level = self.level(power)
        if self.noise is None:
            self.noise = power.copy()
        if level < self.floor_db + 4:
            self.noise = self.smoothing * self.noise + (1 - self.smoothing) * power
        return self.noise


class AdaptiveNoiseTracker(PercentileGate):
    """A noise spectrum and gain floor that follow how steady the noise is (babble or not)."""

    STEADY_FLOOR_DB, BABBLE_FLOOR_DB = -22.0, -12.0
    WINDOW_S = 4.0

    def __init__(self, rate, size):
        super().__init__(rate, size)
        self.log_smoothing = np.exp(-FRAME_S / 2.0)
        self.linear_smoothing = np.exp(-FRAME_S / 1.5)
        self.log_noise = self.linear_noise = None
        self.levels = deque(maxlen=int(self.WINDOW_S / FRAME_S))

    def update(self, power):
        """Returns this frame's noise spectrum and gain floor (linear)."""
        level = self.level(power)
        if self.log_noise is None:
            self.log_noise, self.linear_noise = np.log(power + 1e-20), power.copy()
        if level < self.floor_db + 4:
            self.log_noise = self.log_smoothing * self.log_noise + (1 - self.log_smoothing) * np.log(power + 1e-20)
        if level < self.floor_db + 8:
            self.linear_noise = self.linear_smoothing * self.linear_noise + (1 - self.linear_smoothing) * power
        self.levels.append(level)
        low, high = np.percentile(self.levels, [2, 10]) if len(self.levels) > 50 else (0, 0)
        babble = np.clip((high - low) - 1.5, 0, 1)  # 0 under 1.5 dB of spread, 1 over 2.5
        steady = self.log_noise + np.log(10**0.15)  # + 1.5 dB: a log mean reads under the mean
        noise = np.exp((1 - babble) * steady + babble * np.log(self.linear_noise + 1e-20))
        floor_db = (1 - babble) * self.STEADY_FLOOR_DB + babble * self.BABBLE_FLOOR_DB
        return noise, 10 ** (floor_db / 20)


def frame_suppressor(mic, noise, rate, floor, estimate):
    """Suppression at the preprocessor's latency: hop N, asymmetric windows, output N late.

    estimate: None (the true spectrum), "quantile" or "adaptive" (which also sets the floor).
    """
    hop = int(FRAME_S * rate)
    size = 4 * hop
    analysis, synthesis = asymmetric_windows(hop)
    if estimate == "quantile":
        tracker = QuantileNoiseTracker(rate, size)
    elif estimate == "adaptive":
        tracker = AdaptiveNoiseTracker(rate, size)
    else:
        frames = [noise[i : i + size] * analysis for i in range(0, len(noise) - size, hop)]
        oracle = np.mean(np.abs(np.fft.rfft(frames, axis=1)) ** 2, axis=0)
    y, overlap, previous = np.zeros_like(mic), np.zeros(size), None
    for k in range(size // hop - 1, len(mic) // hop):
        segment = mic[(k + 1) * hop - size : (k + 1) * hop]
        spectrum = np.fft.rfft(segment * analysis)
        power = np.abs(spectrum) ** 2
        if estimate == "adaptive":
            noise_power, floor = tracker.update(power)
        else:
            noise_power = tracker.update(power) if estimate else oracle
        gain = log_mmse_gain(power, noise_power, previous, floor)
        previous = gain**2 * power
        overlap = np.concatenate([overlap[hop:], np.zeros(hop)]) + np.fft.irfft(gain * spectrum, size) * synthesis
        # input frame k-1 is complete now and leaves during frame k: one hop (N) of latency
        y[k * hop : (k + 1) * hop] = overlap[size - 2 * hop : size - hop]
    return y, FRAME_S * 1000


METHODS = {
    "oracle-32ms": lambda mic, noise, rate, floor: oracle_32ms(mic, noise, rate, floor),
    "oracle-frame": lambda mic, noise, rate, floor: frame_suppressor(mic, noise, rate, floor, None),
    "estimated-frame": lambda mic, noise, rate, floor: frame_suppressor(mic, noise, rate, floor, "quantile"),
    "adaptive-frame": lambda mic, noise, rate, floor: frame_suppressor(mic, noise, rate, floor, "adaptive"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tmp = os.environ.get("TMPDIR", "/tmp")
    parser.add_argument("--scenarios", default=f"{tmp}/voicerack-scen48000", help="one rate's scenario folder")
    parser.add_argument("--eval", default=str(Path(__file__).resolve().parent.parent.parent.parent / "shared" / "eval"))
    parser.add_argument("--floor-db", type=float, default=-20.0, help="lowest gain, dB")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated rows to run")
    args = parser.parse_args()
    sys.path.insert(0, args.eval)
    import metrics  # the yardstick's scoring, so the numbers are scripts/eval.sh's

    floor = 10 ** (args.floor_db / 20)
    print(f"{'method':16s} " + " ".join(f"{n[3:]:>7s}" for n in NOISE_SCENARIOS) + "  average")
    for name in args.methods.split(","):
        method = METHODS[name]
        gains = []
        for scenario in NOISE_SCENARIOS:
            folder = Path(args.scenarios) / scenario
            mic, rate = sf.read(folder / "mic.wav")
            noise, _ = sf.read(folder / "noise.wav")
            y, latency_ms = method(mic, noise, rate, floor)
            with tempfile.NamedTemporaryFile(suffix=".wav") as out:
                sf.write(out.name, y, rate, subtype="FLOAT")
                gains.append(metrics.score(folder, out.name, 5.0, latency_ms)["pesq_ns_gain"])
        print(f"{name:16s} " + " ".join(f"{g:7.3f}" for g in gains) + f"  {np.mean(gains):7.3f}")


if __name__ == "__main__":
    main()
