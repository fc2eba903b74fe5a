// LV2 log feature → bounded multi-producer queue; see CLV2Log.h.
#include "CLV2Log.h"

#include <lv2/log/log.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SLOT_COUNT = 64, LINE_BYTES = 256 };

typedef struct {
    atomic_size_t sequence; // == position: free for that push; == position + 1: holds a line
    uint32_t type;
    char text[LINE_BYTES];
} Slot;

struct VRLogQueue {
    LV2_Log_Log log; // first, so the feature data pointer is the queue itself
    atomic_size_t head; // next position to pop (consumer only)
    atomic_size_t tail; // next position to push (producers, by compare-exchange)
    atomic_uint_fast64_t dropped;
    Slot slots[SLOT_COUNT];
};

static int queue_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *format, va_list args) {
    VRLogQueue *queue = handle;
    size_t position = atomic_load_explicit(&queue->tail, memory_order_relaxed);
    Slot *slot;
    for (;;) {
        slot = &queue->slots[position % SLOT_COUNT];
        size_t sequence = atomic_load_explicit(&slot->sequence, memory_order_acquire);
        intptr_t difference = (intptr_t)sequence - (intptr_t)position;
        if (difference == 0) {
            if (atomic_compare_exchange_weak_explicit(&queue->tail, &position, position + 1,
                                                      memory_order_relaxed, memory_order_relaxed))
                break;
        } else if (difference < 0) {
            atomic_fetch_add_explicit(&queue->dropped, 1, memory_order_relaxed);
            return 0;
        } else {
            position = atomic_load_explicit(&queue->tail, memory_order_relaxed);
        }
    }
    slot->type = type;
    int written = vsnprintf(slot->text, LINE_BYTES, format, args);
    atomic_store_explicit(&slot->sequence, position + 1, memory_order_release);
    return written;
}

static int queue_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int written = queue_vprintf(handle, type, format, args);
    va_end(args);
    return written;
}

VRLogQueue *vr_log_queue_create(void) {
    VRLogQueue *queue = calloc(1, sizeof(VRLogQueue));
    if (!queue) return NULL;
    queue->log.handle = queue;
    queue->log.printf = queue_printf;
    queue->log.vprintf = queue_vprintf;
    for (size_t i = 0; i < SLOT_COUNT; i++) atomic_init(&queue->slots[i].sequence, i);
    return queue;
}

void vr_log_queue_destroy(VRLogQueue *queue) { free(queue); }

void *vr_log_queue_feature_data(VRLogQueue *queue) { return &queue->log; }

int vr_log_queue_pop(VRLogQueue *queue, uint32_t *type, char *text, size_t size) {
    size_t position = atomic_load_explicit(&queue->head, memory_order_relaxed);
    Slot *slot = &queue->slots[position % SLOT_COUNT];
    size_t sequence = atomic_load_explicit(&slot->sequence, memory_order_acquire);
    if (sequence != position + 1) return 0;
    *type = slot->type;
    if (size > 0) {
        strncpy(text, slot->text, size - 1);
        text[size - 1] = '\0';
    }
    atomic_store_explicit(&slot->sequence, position + SLOT_COUNT, memory_order_release);
    atomic_store_explicit(&queue->head, position + 1, memory_order_relaxed);
    return 1;
}

uint64_t vr_log_queue_dropped(VRLogQueue *queue) {
    return atomic_load_explicit(&queue->dropped, memory_order_relaxed);
}
