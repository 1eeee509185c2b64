// SPDX-License-Identifier: GPL-2.0-only
/* Scaffolding: replaced by the haltpoll port. */
#include "governors.h"

const struct il_preset il_presets_haltpoll[] = { { 0 } };
