#include <opus/opusenc.h>

/* ope_encoder_ctl is variadic, which Swift cannot call: one typed wrapper per request used. */

/// Target bitrate in bits per second.
static inline int voicerack_ope_set_bitrate(OggOpusEnc *enc, opus_int32 bitsPerSecond) {
    return ope_encoder_ctl(enc, OPUS_SET_BITRATE(bitsPerSecond));
}

/// Longest time (in 48 kHz samples) audio may wait in the encoder before its Ogg page is written.
static inline int voicerack_ope_set_muxing_delay(OggOpusEnc *enc, opus_int32 samples) {
    return ope_encoder_ctl(enc, OPE_SET_MUXING_DELAY(samples));
}
