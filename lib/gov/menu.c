// SPDX-License-Identifier: GPL-2.0-only
/* Scaffolding: replaced by the menu port. */
#include "governors.h"

const struct il_preset il_presets_menu[] = { { 0 } };
