/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - the cpuidle core around a governor: accounting, polling window, reflect.
 */
#ifndef IDLELAB_CORE_H
#define IDLELAB_CORE_H

#include "../cpuidle.h"
#include "../env.h"
#include "../governor.h"

#define U64_MAX_NS UINT64_MAX

/* What cpuidle_enter_state() concluded about one idle period. */
enum il_miss {
	IL_MISS_NONE,
	IL_MISS_ABOVE, /* too deep: residency < target residency, a shallower state was enabled */
	IL_MISS_BELOW, /* too shallow: the next enabled deeper state would have fitted */
	IL_MISS_REJECTED, /* entry failed; last_residency_ns = 0, reflect is not called */
};

/**
 * il_cpuidle_account - the accounting half of cpuidle_enter_state()
 * @drv: the driver
 * @dev: the device
 * @index: the state that was entered (or whose entry failed)
 * @diff_ns: measured time from entry to exit in ns, or a negative value if the entry was
 *           rejected
 *
 * Sets last_residency_ns (and the 4.x µs last_residency), updates usage/time_ns and the
 * above/below/rejected counters by the kernel's rules.
 * Return: the kind of miss, as trace_cpu_idle_miss() would report it.
 */
enum il_miss il_cpuidle_account(const struct il_driver *drv, struct il_device *dev, int index,
				s64 diff_ns);

/**
 * il_cpuidle_poll_time - cpuidle_poll_time() under the preset's polling rule
 * Return: the poll time limit in ns (UINT64_MAX where polling has no limit, 4.16). With the
 * 5.x rule a computed default is cached in dev->poll_limit_ns, as the kernel does.
 */
u64 il_cpuidle_poll_time(const struct il_driver *drv, struct il_device *dev);

/** il_cpuidle_reflect - cpuidle_reflect(): call the governor's reflect only for index >= 0 */
void il_cpuidle_reflect(struct il_device *dev, int index);

#endif /* IDLELAB_CORE_H */
