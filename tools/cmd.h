/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of rdmaio, one file each (cmd_run.c ...), which rdmaio.c
 * dispatches to: each takes the parsed command line, its options already
 * checked, and returns rdmaio's exit status.
 */
#ifndef RDMAIO_TOOLS_CMD_H
#define RDMAIO_TOOLS_CMD_H

struct rio_args;

int rio_cmd_run(struct rio_args *a);
int rio_cmd_check(struct rio_args *a);
int rio_cmd_report(struct rio_args *a);
int rio_cmd_cpu_watch(struct rio_args *a);
/* 1 when a regression is beyond noise, so that a CI can gate on it; 2
 * when nothing could be compared. */
int rio_cmd_compare(struct rio_args *a);
int rio_cmd_env(struct rio_args *a);
/* 2 on usage errors or results that do not make a scale. */
int rio_cmd_scale(struct rio_args *a);

#endif
