#include "CDeepFilter.h"

#include <dlfcn.h>
#include <stdio.h>

typedef vr_df_state *(*create_fn)(const char *, float, const char *);
typedef size_t (*frame_length_fn)(vr_df_state *);
typedef void (*set_atten_fn)(vr_df_state *, float);
typedef void (*free_fn)(vr_df_state *);

static void *handle;
static create_fn df_create;
static frame_length_fn df_get_frame_length;
static set_atten_fn df_set_atten_lim;
static free_fn df_free;
static vr_df_process_frame_fn df_process_frame;

int vr_df_load(const char *library, char *error, size_t error_size) {
    if (handle) return 0;
    void *h = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(error, error_size, "%s", why ? why : "dlopen failed");
        return -1;
    }
    const char *names[] = {"df_create", "df_get_frame_length", "df_set_atten_lim", "df_free", "df_process_frame"};
    void *found[5];
    for (int i = 0; i < 5; i++) {
        found[i] = dlsym(h, names[i]);
        if (!found[i]) {
            snprintf(error, error_size, "%s has no symbol %s (not libDF's C API)", library, names[i]);
            dlclose(h);
            return -1;
        }
    }
    df_create = (create_fn)found[0];
    df_get_frame_length = (frame_length_fn)found[1];
    df_set_atten_lim = (set_atten_fn)found[2];
    df_free = (free_fn)found[3];
    df_process_frame = (vr_df_process_frame_fn)found[4];
    handle = h;
    return 0;
}

vr_df_state *vr_df_create(const char *model_path, float atten_lim_db) {
    return df_create ? df_create(model_path, atten_lim_db, NULL) : NULL;
}

size_t vr_df_frame_length(vr_df_state *state) { return df_get_frame_length(state); }

void vr_df_set_atten_lim(vr_df_state *state, float atten_lim_db) { df_set_atten_lim(state, atten_lim_db); }

void vr_df_free(vr_df_state *state) { df_free(state); }

vr_df_process_frame_fn vr_df_process_frame(void) { return df_process_frame; }
