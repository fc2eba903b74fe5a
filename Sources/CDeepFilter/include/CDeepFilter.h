#ifndef CDEEPFILTER_H
#define CDEEPFILTER_H

#include <stddef.h>

/// libDF's C API (DeepFilterNet's runtime, libdeepfilter.so), reached through dlopen: no
/// Debian package ships the library, so voicerack does not link it and loads it when a preset
/// asks for the learned suppressor. The five entry points voicerack uses, as libDF declares them.

/// One model instance (libDF's DFState), opaque.
typedef struct vr_df_state vr_df_state;

/// libDF's df_process_frame: one hop of `df_get_frame_length` samples in, the same out; returns the
/// model's local SNR estimate (dB). Called on the learned stage's worker thread.
typedef float (*vr_df_process_frame_fn)(vr_df_state *state, float *input, float *output);

/// Loads `library` (a path) with dlopen and resolves the five functions. Returns 0 on success;
/// otherwise writes dlerror's text (or the missing symbol) into `error` and returns -1. Loading
/// again after a success is a no-op returning 0. Main thread.
int vr_df_load(const char *library, char *error, size_t error_size);

/// df_create(model_path, atten_lim_db, log_level): a model from its tar.gz; NULL on failure.
vr_df_state *vr_df_create(const char *model_path, float atten_lim_db);

/// df_get_frame_length: the hop in samples (480 for DeepFilterNet 3 at 48 kHz).
size_t vr_df_frame_length(vr_df_state *state);

/// df_set_atten_lim: the most the model may attenuate, dB.
void vr_df_set_atten_lim(vr_df_state *state, float atten_lim_db);

/// df_free: frees a model.
void vr_df_free(vr_df_state *state);

/// The loaded df_process_frame, to call per hop without another lookup (NULL before vr_df_load).
vr_df_process_frame_fn vr_df_process_frame(void);

#endif
