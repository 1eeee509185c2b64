#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check-line-length.py - list the lines of C files longer than the house limit.

Usage: scripts/check-line-length.py [--max N] [PATH...]   (default: lib/ of the tree)

A line's width counts characters (UTF-8), a tab advancing to the next multiple of 8, as an
editor set up for kernel style shows it. Each line over the limit is printed as
FILE:LINE: N columns; the exit status is 1 if there was one, 0 otherwise, 2 on bad usage.
"""
import os
import sys

MAX_COLUMNS = 100


def width(line):
	col = 0
	for ch in line:
		col = col + 8 - col % 8 if ch == "\t" else col + 1
	return col


def c_files(paths):
	for path in paths:
		if os.path.isfile(path):
			yield path
			continue
		for root, dirs, files in os.walk(path):
			dirs.sort()
			for name in sorted(files):
				if name.endswith((".c", ".h")):
					yield os.path.join(root, name)


def main(argv):
	limit, paths = MAX_COLUMNS, []
	args = iter(argv)
	for a in args:
		if a == "--max":
			try:
				limit = int(next(args))
			except (StopIteration, ValueError):
				print("usage: check-line-length.py [--max N] [PATH...]", file=sys.stderr)
				return 2
		else:
			paths.append(a)
	top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
	if not paths:
		paths = [os.path.join(top, "lib")]
	bad = 0
	for f in c_files(paths):
		rel = os.path.relpath(os.path.abspath(f), top)
		with open(f, encoding="utf-8", errors="replace") as fh:
			for n, line in enumerate(fh, 1):
				w = width(line.rstrip("\n"))
				if w > limit:
					print(f"{rel}:{n}: {w} columns (limit {limit})")
					bad += 1
	if bad:
		print(f"check-line-length: {bad} line(s) over {limit} columns", file=sys.stderr)
	return 1 if bad else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
