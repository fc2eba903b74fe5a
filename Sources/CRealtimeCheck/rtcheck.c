// Weak references to the RealtimeSanitizer runtime (compiler-rt's libclang_rt.rtsan).
// Linked only into the RT-safety test target; everywhere else the symbols resolve to NULL
// and these calls do nothing.
#include "CRealtimeCheck.h"

extern void __rtsan_realtime_enter(void) __attribute__((weak));
extern void __rtsan_realtime_exit(void) __attribute__((weak));
extern void __rtsan_ensure_initialized(void) __attribute__((weak));

void rtcheck_enter(void) {
    if (__rtsan_ensure_initialized) __rtsan_ensure_initialized();
    if (__rtsan_realtime_enter) __rtsan_realtime_enter();
}

void rtcheck_exit(void) {
    if (__rtsan_realtime_exit) __rtsan_realtime_exit();
}

int rtcheck_is_active(void) { return __rtsan_realtime_enter ? 1 : 0; }
