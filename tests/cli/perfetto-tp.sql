-- SPDX-License-Identifier: GPL-2.0-only
-- What Perfetto's trace processor made of an idlelab --perfetto file, one row per count:
--   trace_processor_shell -q tests/cli/perfetto-tp.sql FILE
-- Columns: pid (0: not in a process), what, name, value. perfetto-check.py --tp compares
-- these rows with the same counts taken from the JSON (tests/cli/perfetto-tp.t).
--   process       the process name; value = its threads with a track (the trace processor
--                 also adds a main thread, tid = pid, to every process: no track, not drawn)
--   thread        a thread track (a CPU); value = the slices on it (X slices and instants)
--   ts_sum        the sum of their start times in ns (exact: µs with 3 decimals)
--   dur_sum       the sum of their durations in ns
--   category      a slice category (idle, busy, wakeup, tick, miss); value = how many
--   slice         a slice name (C6, busy, wakeup, miss above...); value = how many
--   wake          the args.cause of the wakeup instants
--   open          idle slices with args.open = true
--   nested        X slices (cat idle or busy, dur > 0) below another slice: periods that
--                 overlap (v33 nests them silently; v58 moves them to an overflow track
--                 and counts the error slice_spill_overlapping_complete_event)
--   counter       a counter track (name + " " + the arg key, e.g. "CPU 3 power mW")
--   counter_uw    the sum of its values in µW
--   global        instants on the global track (the truncation mark)
--   stats         an import error or data loss the trace processor counted (none expected)
SELECT pid, what, name, value FROM (
	SELECT p.pid AS pid, 'process' AS what, p.name AS name,
		(SELECT COUNT(*) FROM thread t JOIN thread_track tt USING (utid)
		 WHERE t.upid = p.upid) AS value
	FROM process p WHERE p.pid > 0
	UNION ALL
	SELECT p.pid, 'thread', t.name, COUNT(s.id)
	FROM thread t JOIN process p USING (upid)
	JOIN thread_track tt ON tt.utid = t.utid
	LEFT JOIN slice s ON s.track_id = tt.id
	GROUP BY tt.id
	UNION ALL
	SELECT p.pid, 'ts_sum', t.name, SUM(s.ts)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid) GROUP BY t.utid
	UNION ALL
	SELECT p.pid, 'dur_sum', t.name, SUM(s.dur)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid) GROUP BY t.utid
	UNION ALL
	SELECT p.pid, 'category', s.category, COUNT(*)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid) GROUP BY p.pid, s.category
	UNION ALL
	SELECT p.pid, 'slice', s.name, COUNT(*)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid) GROUP BY p.pid, s.name
	UNION ALL
	SELECT p.pid, 'wake', EXTRACT_ARG(s.arg_set_id, 'args.cause'), COUNT(*)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid)
	WHERE s.name = 'wakeup' GROUP BY p.pid, 2, 3
	UNION ALL
	SELECT p.pid, 'open', '', COUNT(*)
	FROM slice s JOIN thread_track tt ON s.track_id = tt.id
	JOIN thread t USING (utid) JOIN process p USING (upid)
	WHERE s.category = 'idle' AND EXTRACT_ARG(s.arg_set_id, 'args.open') = 1
	GROUP BY p.pid
	UNION ALL
	SELECT p.pid, 'nested', '', COUNT(s.id)
	FROM process p
	LEFT JOIN thread t USING (upid) LEFT JOIN thread_track tt USING (utid)
	LEFT JOIN slice s ON s.track_id = tt.id AND s.depth > 0 AND s.dur > 0
		AND s.category IN ('idle', 'busy')
	WHERE p.pid > 0 GROUP BY p.pid
	UNION ALL
	SELECT p.pid, 'counter', ct.name, COUNT(*)
	FROM counter c JOIN process_counter_track ct ON c.track_id = ct.id
	JOIN process p USING (upid) GROUP BY ct.id
	UNION ALL
	SELECT p.pid, 'counter_uw', ct.name, SUM(CAST(ROUND(c.value * 1000) AS INT))
	FROM counter c JOIN process_counter_track ct ON c.track_id = ct.id
	JOIN process p USING (upid) GROUP BY ct.id
	UNION ALL
	SELECT 0, 'global', s.name, COUNT(*)
	FROM slice s WHERE s.track_id NOT IN (SELECT id FROM thread_track)
	GROUP BY s.name
	UNION ALL
	SELECT 0, 'stats', name || IFNULL('[' || idx || ']', ''), value
	FROM stats WHERE severity IN ('error', 'data_loss') AND value > 0
)
ORDER BY pid, what, name;
