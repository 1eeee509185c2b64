// SPDX-License-Identifier: GPL-2.0-only
/* Scaffolding: replaced by the CLI. */
int main(void) { return 0; }
