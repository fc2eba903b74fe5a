#ifndef CLV2LOG_H
#define CLV2LOG_H

#include <stddef.h>
#include <stdint.h>

/// A bounded, lock-free queue of log lines behind LV2's log feature (LV2_Log_Log).
///
/// LV2_Log_Log's printf is variadic, which Swift cannot implement, so the feature lives here.
/// A plugin may log from its run() (the process thread), its worker and its instantiate, so any
/// number of threads may push (Vyukov's bounded queue: a reservation by compare-exchange, then a
/// per-slot sequence number publishes the line); one thread, off the process thread, pops.
/// Pushing formats into the slot with vsnprintf (no allocation for ordinary conversions) and never
/// waits: when the queue is full the line is dropped and counted.
typedef struct VRLogQueue VRLogQueue;

/// A new, empty queue. Not real-time safe (allocates).
VRLogQueue *vr_log_queue_create(void);

/// Frees a queue made by vr_log_queue_create, once no plugin can log into it.
void vr_log_queue_destroy(VRLogQueue *queue);

/// The LV2_Log_Log to hand to a plugin as the data of the http://lv2plug.in/ns/ext/log#log
/// feature; valid while the queue lives.
void *vr_log_queue_feature_data(VRLogQueue *queue);

/// Pops the oldest line into `text` (NUL-terminated, cut to `size`), with its LV2 message type
/// URID in `type`. Returns 1 when a line was popped, 0 when the queue is empty. One consumer only.
int vr_log_queue_pop(VRLogQueue *queue, uint32_t *type, char *text, size_t size);

/// Lines dropped because the queue was full.
uint64_t vr_log_queue_dropped(VRLogQueue *queue);

#endif
