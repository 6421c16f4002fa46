/* SPDX-License-Identifier: MIT */
#ifndef NR_KMODULE_H
#define NR_KMODULE_H

/*
 * Loads a kernel module (or alias) with libkmod, honouring modprobe.d
 * blacklists and options but never running "install" commands: those are
 * shell lines. Explains the failure itself; returns 0 or -errno (-EPERM for
 * a blacklisted module).
 */
int nr_module_load(const char *name, const char *why);

/* 1 when the module is loaded or built in, 0 when not, -errno on error. */
int nr_module_present(const char *name);

#endif
