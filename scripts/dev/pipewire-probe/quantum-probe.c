// A minimal JACK client that logs, per process callback, JACK's frame time and the cycle's
// size, and per buffer-size callback when it came; the buffer-size callback may take DELAY ms
// (standing in for a client that builds something there). Prints every gap in the timeline (a
// jump back is the client moving under another driver when it is linked to a device).
#include <jack/jack.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX 200000
static jack_client_t *client;
static jack_nframes_t frame_at[MAX], size_at[MAX];
static long long ns_at[MAX];
static volatile int cycles;
static struct { long long ns; jack_nframes_t size, frame; long long took; } bs[64];
static volatile int bs_n;
static int delay_ms;
static volatile sig_atomic_t stop;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int process(jack_nframes_t n, void *arg) {
    int i = cycles;
    if (i < MAX) {
        frame_at[i] = jack_last_frame_time(client);
        size_at[i] = n;
        ns_at[i] = now_ns();
        cycles = i + 1;
    }
    return 0;
}

static int bufsize(jack_nframes_t n, void *arg) {
    long long t = now_ns();
    if (delay_ms) usleep(delay_ms * 1000);
    if (bs_n < 64) {
        bs[bs_n].ns = t;
        bs[bs_n].size = n;
        bs[bs_n].frame = jack_frame_time(client);
        bs[bs_n].took = now_ns() - t;
        bs_n++;
    }
    return 0;
}

static void on_signal(int s) { stop = 1; }

int main(int argc, char **argv) {
    const char *server = argc > 1 ? argv[1] : NULL;
    delay_ms = argc > 2 ? atoi(argv[2]) : 0;
    jack_status_t status;
    client = jack_client_open("probe", server ? JackServerName : JackNullOption, &status, server);
    if (!client) { fprintf(stderr, "cannot open client (0x%x)\n", status); return 1; }
    jack_set_process_callback(client, process, NULL);
    jack_set_buffer_size_callback(client, bufsize, NULL);
    jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (jack_activate(client)) { fprintf(stderr, "cannot activate\n"); return 1; }
    printf("probe: running, buffer-size callback takes %d ms\n", delay_ms);
    fflush(stdout);
    while (!stop) usleep(10000);
    jack_deactivate(client);
    int n = cycles;
    long long missing = 0;
    for (int k = 0; k < bs_n; k++)
        printf("bufsize callback: %u frames at %.3f s (frame time %u), took %.1f ms\n", bs[k].size,
               (bs[k].ns - ns_at[0]) / 1e9, bs[k].frame, bs[k].took / 1e6);
    for (int i = 1; i < n; i++) {
        jack_nframes_t expected = frame_at[i - 1] + size_at[i - 1];
        int gap = (int)(frame_at[i] - expected);
        if (gap != 0 || size_at[i] != size_at[i - 1]) {
            printf("cycle %d at %.3f s: %u frames (was %u), frame time %u, expected %u: %d frames not run "
                   "(%.2f cycles of the new size), %.1f ms since the last callback\n",
                   i, (ns_at[i] - ns_at[0]) / 1e9, size_at[i], size_at[i - 1], frame_at[i], expected, gap,
                   (double)gap / size_at[i], (ns_at[i] - ns_at[i - 1]) / 1e6);
            if (gap > 0) missing += gap;
        }
    }
    printf("probe: %d callbacks, %lld frames not run in all\n", n, missing);
    jack_client_close(client);
    return 0;
}
