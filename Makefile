# SPDX-License-Identifier: GPL-2.0-only
#
# idlelab build.  `make` builds the library and the CLI into $(O)/, `make check` runs every
# test, `make demo` installs missing Debian build dependencies and runs the main job.
#
#   O=DIR          build directory (default build, build-asan for SANITIZE=1)
#   SANITIZE=1     build with ASan + UBSan
#   WERROR=1       turn warnings into errors (CI)
#   V=1            show the commands
#   VM_REQUIRED=1  make check-vm fail, not skip, when qemu or the guest kernel is missing (CI)

SANITIZE ?= 0
WERROR ?= 0
ifeq ($(SANITIZE),1)
O ?= build-asan
else
O ?= build
endif

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
# The kernel is built with -fno-strict-overflow: signed overflow wraps, and the governor
# ports depend on that where upstream does.
BASE_CFLAGS := -pthread -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-strict-overflow -fwrapv \
	-Iinclude -Ilib -MMD -MP
ifeq ($(WERROR),1)
BASE_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BASE_CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- feature detection (kernel-tool style) -------------------------------------------------
feature = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo 1 || echo 0)
FEATURE_JANSSON := $(call feature,jansson)
FEATURE_CMOCKA := $(call feature,cmocka)
FEATURE_LIBTRACEFS := $(call feature,libtracefs)
FEATURE_LIBTRACECMD := $(call feature,libtracecmd)
FEATURE_ZLIB := $(call feature,zlib)
FEATURE_RMATH := $(call feature,libRmath)

ifeq ($(FEATURE_JANSSON),1)
BASE_CFLAGS += -DHAVE_JANSSON $(shell $(PKG_CONFIG) --cflags jansson)
LIBS += $(shell $(PKG_CONFIG) --libs jansson)
endif
# libtracecmd (+ libtraceevent): the binary trace.dat reader of `stats`/`replay` (lib/trace/dat.c).
ifeq ($(FEATURE_LIBTRACECMD),1)
BASE_CFLAGS += -DHAVE_LIBTRACECMD $(shell $(PKG_CONFIG) --cflags libtracecmd)
LIBS += $(shell $(PKG_CONFIG) --libs libtracecmd)
endif
# libtracefs: `idlelab measure --trace` records through a private tracing instance (lib/live/trace.c).
ifeq ($(FEATURE_LIBTRACEFS),1)
BASE_CFLAGS += -DHAVE_LIBTRACEFS $(shell $(PKG_CONFIG) --cflags libtracefs)
LIBS += $(shell $(PKG_CONFIG) --libs libtracefs)
endif
# zlib: `idlelab states --export` reads CONFIG_HZ from /proc/config.gz (lib/live/export.c).
ifeq ($(FEATURE_ZLIB),1)
BASE_CFLAGS += -DHAVE_ZLIB $(shell $(PKG_CONFIG) --cflags zlib)
LIBS += $(shell $(PKG_CONFIG) --libs zlib)
endif
# libRmath (Debian's r-mathlib, R's standalone mathematics library): Student's t for the
# confidence intervals and tests of lib/stat/. Required.
ifeq ($(FEATURE_RMATH),1)
BASE_CFLAGS += $(shell $(PKG_CONFIG) --cflags libRmath)
LIBS += $(shell $(PKG_CONFIG) --libs libRmath)
else ifeq ($(filter clean deps demo,$(MAKECMDGOALS)),)
$(error libRmath not found: please install r-mathlib (scripts/install-deps.sh))
endif
LIBS += -lm -pthread

onoff = $(if $(filter 1,$(1)),[ on  ],[ OFF ])
define print_features
	@echo ""
	@echo "Auto-detecting system features:"
	@echo "...                        jansson: $(call onoff,$(FEATURE_JANSSON))"
	@echo "...                         cmocka: $(call onoff,$(FEATURE_CMOCKA))"
	@echo "...                     libtracefs: $(call onoff,$(FEATURE_LIBTRACEFS))"
	@echo "...                    libtracecmd: $(call onoff,$(FEATURE_LIBTRACECMD))"
	@echo "...                           zlib: $(call onoff,$(FEATURE_ZLIB))"
	@echo "...                       libRmath: $(call onoff,$(FEATURE_RMATH))"
	@echo ""
endef

# ---- sources ---------------------------------------------------------------------------------
LIB_SRCS := $(sort $(shell find lib -name '*.c'))
CLI_SRCS := $(sort $(wildcard src/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_HELPER_SRCS := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/%)
UNIT_HELPER_OBJS := $(UNIT_HELPER_SRCS:%.c=$(O)/%.o)

LIBIDLELAB := $(O)/libidlelab.a
IDLELAB := $(O)/idlelab

.PHONY: all features check check-unit check-cli check-vm demo clean deps asan bench
all: features $(IDLELAB)

features:
	$(print_features)

# ---- built-in platforms, CLI parsers in unit tests, fuzzing (lib/platform/, src/, fuzz/) ----
# platforms/*.plat are embedded into the library as strings (lib/platform/embed.sh); the list
# that registers them is lib/platform/platforms.h.
PLATFORM_FILES := $(sort $(wildcard platforms/*.plat))
PLATFORM_GEN := $(O)/gen/platforms.c
LIB_OBJS += $(O)/gen/platforms.o

$(PLATFORM_GEN): $(PLATFORM_FILES) lib/platform/embed.sh
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)lib/platform/embed.sh $(PLATFORM_FILES) > $@.tmp && mv $@.tmp $@

$(O)/gen/platforms.o: $(PLATFORM_GEN)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

# test_cli links the CLI objects (all but main()) to test the subcommands' argument parsers.
CLI_LIB_OBJS := $(filter-out $(O)/src/idlelab.o,$(CLI_OBJS))
# test_trace_cli: the argument parsers of stats and replay (src/trace_cli.c), likewise.
$(O)/tests/unit/test_trace_cli: $(O)/tests/unit/test_trace_cli.o $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

$(O)/tests/unit/test_cli: $(O)/tests/unit/test_cli.o $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJS) $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

# `make fuzz` builds libFuzzer targets of the text parsers into $(O)/fuzz/; `make fuzz-run
# FUZZ_SECONDS=N` runs each for N seconds on a seed corpus (fuzz/run.sh).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fwrapv -Ilib \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_COMMON := lib/platform/lex.c lib/platform/error.c
FUZZ_BINS := $(O)/fuzz/fuzz_platform $(O)/fuzz/fuzz_step
$(O)/fuzz/fuzz_platform: fuzz/fuzz_platform.c lib/platform/platform.c lib/core/cpuidle.c $(FUZZ_COMMON)
$(O)/fuzz/fuzz_step: fuzz/fuzz_step.c lib/step/input.c $(FUZZ_COMMON)
# The trace readers: one target per text reader, and one that detects the format.
FUZZ_TRACE_SRCS := fuzz/fuzz_trace.c $(sort $(wildcard lib/trace/*.c)) lib/stats/stats.c \
	lib/core/cpuidle.c
FUZZ_TRACE_BINS := $(O)/fuzz/fuzz_trace_ftrace $(O)/fuzz/fuzz_trace_tracecmd \
	$(O)/fuzz/fuzz_trace_perf $(O)/fuzz/fuzz_trace_idlestat $(O)/fuzz/fuzz_trace_detect
$(O)/fuzz/fuzz_trace_ftrace: READER := '"ftrace"'
$(O)/fuzz/fuzz_trace_tracecmd: READER := '"trace-cmd"'
$(O)/fuzz/fuzz_trace_perf: READER := '"perf"'
$(O)/fuzz/fuzz_trace_idlestat: READER := '"idlestat"'
$(O)/fuzz/fuzz_trace_detect: READER := NULL
$(FUZZ_TRACE_BINS): $(FUZZ_TRACE_SRCS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -DREADER=$(READER) $(filter %.c,$^) -o $@
FUZZ_BINS += $(FUZZ_TRACE_BINS)
# The rt-app reader (lib/rtapp/) reads JSON through jansson.
ifeq ($(FEATURE_JANSSON),1)
FUZZ_BINS += $(O)/fuzz/fuzz_rtapp
endif
# The run fields of verdict case files (lib/verdict/casefile.c), which merge reads.
FUZZ_BINS += $(O)/fuzz/fuzz_verdict_case
$(O)/fuzz/fuzz_verdict_case: fuzz/fuzz_verdict_case.c lib/verdict/casefile.c
$(O)/fuzz/fuzz_rtapp: fuzz/fuzz_rtapp.c $(sort $(wildcard lib/rtapp/*.c)) lib/platform/error.c
$(O)/fuzz/fuzz_rtapp: FUZZ_LIBS = -DHAVE_JANSSON $(shell $(PKG_CONFIG) --cflags --libs jansson)

$(filter-out $(FUZZ_TRACE_BINS),$(FUZZ_BINS)):
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ $(FUZZ_LIBS)

.PHONY: fuzz fuzz-run
fuzz: $(FUZZ_BINS)

fuzz-run: fuzz
	$(Q)fuzz/run.sh $(O)/fuzz $(FUZZ_SECONDS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(LIBIDLELAB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(IDLELAB): $(CLI_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIBIDLELAB) $(LIBS)

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(UNIT_HELPER_OBJS) $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(UNIT_HELPER_OBJS) $(LIBIDLELAB) $(LIBS) -lcmocka

# kgov compiles upstream governor files with the kernel-API shim in kshim/ (lib/kgov/build.c);
# it finds the shim through the source tree it was built from (or $IDLELAB_KSHIM_DIR).
$(O)/lib/kgov/build.o: BASE_CFLAGS += -DIL_SRCDIR='"$(CURDIR)"'

# ---- tests -----------------------------------------------------------------------------------
check: all check-unit check-cli check-vm

check-unit: $(UNIT_BINS)
	$(Q)tests/run-unit.sh $(UNIT_BINS)

check-cli: $(IDLELAB)
	$(Q)IDLELAB=$(abspath $(IDLELAB)) prove -f tests/cli/

# idlelab states/measure against a real cpuidle driver: tests/cli/live-real.t and
# scripts/vm/guest-test.sh in a QEMU guest booted from Debian's kernel (docs/measure.md).
# run-guest.sh exits 77 when qemu, iasl, busybox-static or the kernel is missing: a skip.
check-vm: $(IDLELAB)
	$(Q)rc=0; scripts/vm/run-guest.sh --build $(O) || rc=$$?; \
	if [ $$rc = 77 ] && [ "$(VM_REQUIRED)" != 1 ]; then echo "check-vm: skipped"; rc=0; fi; \
	exit $$rc

asan:
	$(MAKE) SANITIZE=1 check

demo:
	$(Q)scripts/install-deps.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh $(IDLELAB)

deps:
	$(Q)scripts/install-deps.sh

clean:
	rm -rf build build-asan

# ---- bench (run by `make bench`, not by the tests) --------------------------------------------
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:%.c=$(O)/%)

$(O)/bench/%: $(O)/bench/%.o $(LIBIDLELAB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(LIBIDLELAB) $(LIBS)

bench: $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do $$b || exit 1; done

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d) $(UNIT_HELPER_OBJS:.o=.d)
