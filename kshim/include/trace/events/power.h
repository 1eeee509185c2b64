/* SPDX-License-Identifier: GPL-2.0-only */
/* trace/events/power.h (kshim) - tracepoints are disabled; their arguments are not evaluated. */
#ifndef KSHIM_TRACE_EVENTS_POWER_H
#define KSHIM_TRACE_EVENTS_POWER_H

#include <linux/kernel.h>

#define trace_guest_halt_poll_ns_grow(...) do { } while (0)
#define trace_guest_halt_poll_ns_shrink(...) do { } while (0)
#define trace_cpu_idle(...) do { } while (0)
#define trace_cpu_idle_miss(...) do { } while (0)

#endif
