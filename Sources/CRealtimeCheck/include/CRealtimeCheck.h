#ifndef CREALTIMECHECK_H
#define CREALTIMECHECK_H

/// Marks the calling thread as real-time for RealtimeSanitizer until rtcheck_exit().
/// Does nothing when the RTSan runtime is not linked into the process.
void rtcheck_enter(void);

/// Leaves the real-time region entered by rtcheck_enter().
void rtcheck_exit(void);

/// Returns 1 when the RTSan runtime is linked into this process, else 0.
int rtcheck_is_active(void);

#endif
