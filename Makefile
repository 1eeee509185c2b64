# SPDX-License-Identifier: GPL-2.0-only
#
# idlelab build.  `make` builds the library and the CLI into $(O)/, `make check` runs every
# test, `make demo` installs missing Debian build dependencies and runs the main job.
#
#   O=DIR          build directory (default build, build-asan for SANITIZE=1)
#   SANITIZE=1     build with ASan + UBSan
#   WERROR=1       turn warnings into errors (CI)
#   V=1            show the commands

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
BASE_CFLAGS := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-strict-overflow -fwrapv \
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

ifeq ($(FEATURE_JANSSON),1)
BASE_CFLAGS += -DHAVE_JANSSON $(shell $(PKG_CONFIG) --cflags jansson)
LIBS += $(shell $(PKG_CONFIG) --libs jansson)
endif
LIBS += -lm

onoff = $(if $(filter 1,$(1)),[ on  ],[ OFF ])
define print_features
	@echo ""
	@echo "Auto-detecting system features:"
	@echo "...                        jansson: $(call onoff,$(FEATURE_JANSSON))"
	@echo "...                         cmocka: $(call onoff,$(FEATURE_CMOCKA))"
	@echo "...                     libtracefs: $(call onoff,$(FEATURE_LIBTRACEFS))"
	@echo "...                    libtracecmd: $(call onoff,$(FEATURE_LIBTRACECMD))"
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

.PHONY: all features check check-unit check-cli demo clean deps asan bench
all: features $(IDLELAB)

features:
	$(print_features)

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

# ---- tests -----------------------------------------------------------------------------------
check: all check-unit check-cli

check-unit: $(UNIT_BINS)
	$(Q)tests/run-unit.sh $(UNIT_BINS)

check-cli: $(IDLELAB)
	$(Q)IDLELAB=$(abspath $(IDLELAB)) prove -f tests/cli/

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

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d) $(UNIT_HELPER_OBJS:.o=.d)
