/* SPDX-License-Identifier: MIT */
/* Command entry points of the nfsrdma program (main.c dispatches). */
#ifndef NR_CMD_H
#define NR_CMD_H

/* Up-front root check: explains and returns -EPERM when not root. */
int nr_need_root(const char *what);
/* Prints a usage error and returns exit status 2. */
int nr_bad_usage(const char *fmt, const char *arg);

/* A whole decimal number in [min, max] (min >= 0), or -1. */
int nr_parse_int(const char *s, int min, int max);

int nr_cmd_export(int argc, char **argv);

int nr_cmd_status(int argc, char **argv);

int nr_cmd_mount(int argc, char **argv);
int nr_cmd_umount(int argc, char **argv);

#endif
