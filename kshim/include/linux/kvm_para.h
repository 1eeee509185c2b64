/* SPDX-License-Identifier: GPL-2.0-only */
/* kvm_para.h (kshim) - the lab is a KVM guest as far as haltpoll is concerned. */
#ifndef KSHIM_LINUX_KVM_PARA_H
#define KSHIM_LINUX_KVM_PARA_H

#include <linux/kernel.h>

static inline bool kvm_para_available(void)
{
	return true;
}

#endif
